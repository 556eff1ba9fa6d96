/**
 * The target's batch API over the openai SDK (issue #22 item 4), in the two shapes providers use:
 * - `openai`: the requests as a JSONL file (`files.create`, purpose "batch"), `batches.create`,
 *   `batches.retrieve` to poll, the output and error files to read the answers (OpenAI, and
 *   servers that copy it: Groq, Mistral's compatible route, vLLM's batch runner…);
 * - `openrouter`: `POST /batches` with the requests inline (endpoint and model first: the
 *   provider stream-parses the body), `GET /batches/{id}` to poll; the answers come inline.
 * Each line is the body the role's live call would send, without a service tier. An answer is
 * read like a live one (a refusal or a filter is an item error); a line that failed or was not
 * run is its LlmError — never a wrong answer.
 */
import OpenAI, { toFile } from 'openai';
import { BATCH_API_LABELS, DEFAULT_BATCH_POLL_MS, type BatchApi } from '../core/config/batch-api';
import { LlmError, type BatchLine, type BatchProgress, type LlmResponse, type TargetBatchPort } from '../engine/ports';
import { classifyError, redact, type ClassifyContext } from './errors';
import { readCompletion } from './read-completion';
import type { EndpointConfig } from './endpoint';
import type { LlmRequest, Role } from '../engine/ports';

/** What the batch client needs of a role's client (llm/openai-client.ts RoleClient). */
export interface BatchCapableClient {
  readonly role: Role;
  readonly cfg: EndpointConfig;
  readonly sdk: OpenAI;
  batchBody(req: LlmRequest): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
}

const ENDPOINT = '/v1/chat/completions';

interface ResultLine {
  custom_id?: string;
  /** The line was not a readable JSON object (readResultLine). */
  unreadable?: boolean;
  response?: { status_code?: number; body?: unknown } | null;
  error?: { code?: string | null; message?: string; type?: string } | null;
}

interface InlineBatch {
  id: string;
  status: string;
  error?: { message?: string } | null;
  request_counts?: { total?: number; completed?: number; failed?: number };
  results?: ResultLine[] | null;
}

/**
 * One line of a batch's output file. A line that is not JSON (a provider's glitch, a cut-off file)
 * keeps the item it names, when its custom_id can still be read, so that item alone is asked again.
 */
function readResultLine(text: string): ResultLine {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const line = v as ResultLine;
      return typeof line.custom_id === 'string' ? line : { ...line, custom_id: undefined, unreadable: true };
    }
  } catch {
    // read below
  }
  const raw = /"custom_id"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text)?.[1];
  let id: string | undefined;
  try {
    id = raw === undefined ? undefined : (JSON.parse(raw) as string);
  } catch {
    id = undefined;
  }
  return { custom_id: id, unreadable: true };
}

const RUNNING = new Set(['validating', 'in_progress', 'finalizing', 'cancelling']);

export class TargetBatchClient implements TargetBatchPort {
  readonly label: string;
  private readonly ctx: ClassifyContext;

  constructor(
    private readonly client: BatchCapableClient,
    private readonly api: BatchApi,
    readonly pollMs = DEFAULT_BATCH_POLL_MS,
  ) {
    this.label = BATCH_API_LABELS[api];
    const cfg = client.cfg;
    this.ctx = { role: client.role, baseURL: cfg.baseURL, model: cfg.model, secrets: [cfg.apiKey] };
  }

  /** Uploads and downloads can be large: never less than two minutes. */
  private options(signal?: AbortSignal) {
    return { signal, maxRetries: this.client.cfg.maxRetries, timeout: Math.max(this.client.cfg.timeoutMs, 120_000) };
  }

  private async call<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw classifyError(e, this.ctx);
    }
  }

  async submit(lines: BatchLine[], signal?: AbortSignal): Promise<string> {
    const sdk = this.client.sdk;
    if (this.api === 'openrouter') {
      const requests = lines.map((l) => {
        const { model: _model, ...body } = this.client.batchBody(l.request);
        return { custom_id: l.customId, body };
      });
      // Key order matters: endpoint and model before the requests.
      const body = { endpoint: ENDPOINT, model: this.client.cfg.model, completion_window: '24h', requests };
      const created = await this.call(() => sdk.post<InlineBatch>('/batches', { body, ...this.options(signal) }));
      return created.id;
    }
    const jsonl = lines
      .map((l) =>
        JSON.stringify({
          custom_id: l.customId,
          method: 'POST',
          url: ENDPOINT,
          body: this.client.batchBody(l.request),
        }),
      )
      .join('\n');
    const file = await this.call(async () =>
      sdk.files.create(
        {
          file: await toFile(new TextEncoder().encode(`${jsonl}\n`), 'skillwright-batch.jsonl', {
            type: 'application/jsonl',
          }),
          purpose: 'batch',
        },
        this.options(signal),
      ),
    );
    const batch = await this.call(() =>
      sdk.batches.create(
        { input_file_id: file.id, endpoint: ENDPOINT, completion_window: '24h', metadata: { source: 'skillwright' } },
        this.options(signal),
      ),
    );
    return batch.id;
  }

  async progress(batchId: string, signal?: AbortSignal): Promise<BatchProgress> {
    const b = await this.retrieve(batchId, signal);
    const counts = b.request_counts ?? {};
    const finished = (counts.completed ?? 0) + (counts.failed ?? 0);
    if (RUNNING.has(b.status)) return { state: 'running', total: counts.total ?? 0, finished };
    if (b.status === 'failed')
      return {
        state: 'failed',
        total: counts.total ?? 0,
        finished,
        message: redact(b.message || 'the provider gave no reason', this.ctx.secrets),
      };
    // completed, expired (what ran is in the files; the rest errs) or cancelled.
    return { state: 'finished', total: counts.total ?? 0, finished };
  }

  private async retrieve(batchId: string, signal?: AbortSignal) {
    const sdk = this.client.sdk;
    if (this.api === 'openrouter') {
      const b = await this.call(() =>
        sdk.get<InlineBatch>(`/batches/${encodeURIComponent(batchId)}`, this.options(signal)),
      );
      return { ...b, message: b.error?.message, files: [] as string[] };
    }
    const b = await this.call(() => sdk.batches.retrieve(batchId, this.options(signal)));
    const message = b.errors?.data
      ?.map((d) => d.message)
      .filter(Boolean)
      .join('; ');
    return {
      ...b,
      message,
      results: null,
      files: [b.output_file_id, b.error_file_id].filter((id): id is string => !!id),
    };
  }

  async results(batchId: string, signal?: AbortSignal): Promise<Map<string, LlmResponse | LlmError>> {
    const b = await this.retrieve(batchId, signal);
    let lines: ResultLine[] = b.results ?? [];
    for (const id of b.files) {
      const text = await this.call(async () => (await this.client.sdk.files.content(id, this.options(signal))).text());
      lines = lines.concat(
        text
          .split('\n')
          .filter((l) => l.trim())
          .map(readResultLine),
      );
    }
    // An item answered twice (or by an unreadable line) has no answer to trust: an error row, asked again.
    const seen = new Map<string, number>();
    for (const line of lines) if (line.custom_id) seen.set(line.custom_id, (seen.get(line.custom_id) ?? 0) + 1);
    const out = new Map<string, LlmResponse | LlmError>();
    for (const line of lines) {
      const id = line.custom_id;
      if (!id || out.has(id)) continue;
      const n = seen.get(id)!;
      out.set(
        id,
        n > 1
          ? this.unusable(`Batch ${batchId} returned ${n} answers for this item`)
          : line.unreadable
            ? this.unusable(`Batch ${batchId}'s answer line for this item is not readable JSON`)
            : this.readLine(line),
      );
    }
    return out;
  }

  private unusable(what: string): LlmError {
    return new LlmError('server', `${what}; a resumed run asks again.`, { role: this.client.role });
  }

  /** One result line as what a live call would have given: an answer or its LlmError. */
  private readLine(line: ResultLine): LlmResponse | LlmError {
    const status = line.response?.status_code;
    if (status === 200) {
      const body = line.response!.body as OpenAI.Chat.Completions.ChatCompletion;
      try {
        // The prompt is not echoed back: usage comes from the provider (estimated from the answer otherwise).
        const read = readCompletion(body, { messages: [] }, this.client.role, this.client.cfg);
        return { ...read, latencyMs: 0, attempts: 1, jsonMode: 'text' };
      } catch (e) {
        return classifyError(e, this.ctx);
      }
    }
    if (status !== undefined)
      return classifyError(
        OpenAI.APIError.generate(status, line.response?.body as object, undefined, new Headers()),
        this.ctx,
      );
    const err = line.error ?? {};
    if (err.code === 'batch_expired' || /expired|cancel/i.test(err.message ?? '')) {
      return new LlmError(
        'server',
        `The batch closed before this item was answered (${err.code ?? 'expired'}); a resumed run asks again.`,
        { role: this.client.role },
      );
    }
    // An inline error without an HTTP status: a request error (400) when the provider says so.
    const guess = err.type === 'invalid_request_error' ? 400 : 500;
    return classifyError(OpenAI.APIError.generate(guess, { error: err }, undefined, new Headers()), this.ctx);
  }
}
