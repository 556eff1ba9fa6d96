/**
 * The test server's batch endpoints (issue #22 item 4), in the two shapes providers use:
 * - OpenAI: upload a JSONL file (`POST /files`, purpose "batch"), `POST /batches` with its
 *   `input_file_id`, poll `GET /batches/{id}`, download `output_file_id` / `error_file_id`
 *   through `GET /files/{id}/content`;
 * - OpenRouter: `POST /batches` with the requests inline (`endpoint` and `model` first), poll
 *   `GET /batches/{id}`, whose terminal answer carries the `results` inline.
 * Each line is answered by the same chat handler as a live call, so a batch and a synchronous
 * run see the same world. A batch is answered when created and shown as finished once
 * `batchDelayMs` has passed; faults: a refused batch, expired lines, per-line faults.
 */
import type http from 'node:http';
import type { ChatBody } from '../../src/core/simulators/demo-optimizer';

export interface ChatOutcome {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answered (a timeout) or the socket dropped: a batch line errors instead. */
  hang?: 'timeout' | 'drop';
  stream?: {
    base: Record<string, unknown>;
    text: string;
    usage: Record<string, unknown>;
    /** A turn that calls tools (issue #42: harnesses stream their tool calls). */
    toolCalls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  };
}

export interface BatchServerOptions {
  /** Which batch shapes the server speaks: both, or none (a server without batch: 404). */
  batchApi?: 'both' | 'none';
  /** A batch reads as finished this long after it was created. */
  batchDelayMs?: number;
  /** The next batch is refused at validation with this message (status "failed"). */
  batchRefusal?: string;
  /** The last this many lines of each batch are not run before the window closes ("expired"). */
  batchExpireLines?: number;
  /** The output file's first this many lines are cut off mid-JSON (a glitch, a torn download): custom_id still readable. */
  batchTornLines?: number;
  /** The output file also holds one line of pure garbage, naming no item. */
  batchGarbageLine?: boolean;
  /** The output file answers its last this many items twice, the second time with another answer. */
  batchDuplicateLines?: number;
  /** The next request about a batch finds none: the server forgot every batch (another account, a purge). */
  batchForget?: boolean;
  apiKey?: string;
}

export interface BatchRecord {
  id: string;
  shape: 'openai' | 'inline';
  lines: number;
  createdAt: number;
  /** Times the batch's status was asked. */
  polls: number;
}

interface Line {
  custom_id: string;
  body: ChatBody;
}

interface StoredBatch extends BatchRecord {
  status: 'validating' | 'failed' | 'in_progress' | 'completed' | 'expired' | 'cancelled';
  model: string;
  inputFileId?: string;
  outputFileId?: string;
  errorFileId?: string;
  refusal?: string;
  results: { custom_id: string; outcome: ChatOutcome | 'expired' }[];
  counts: { total: number; completed: number; failed: number };
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

type Send = (req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown, extra?: Record<string, string>) => void;

export function createBatchRoutes(deps: {
  options: BatchServerOptions;
  answer: (body: ChatBody, auth: string, headerNames: string[], viaBatch: boolean) => ChatOutcome;
  send: Send;
  apiError: (message: string, type: string) => unknown;
}) {
  const { options, answer, send, apiError } = deps;
  const files = new Map<string, { bytes: Buffer; filename: string; purpose: string }>();
  const store = new Map<string, StoredBatch>();
  const records: BatchRecord[] = [];
  let ids = 0;

  const fileObject = (id: string) => {
    const f = files.get(id)!;
    return { id, object: 'file', bytes: f.bytes.length, created_at: 0, filename: f.filename, purpose: f.purpose, status: 'processed' };
  };

  /** Answer every line now; the batch shows it once its delay has passed. */
  function run(b: StoredBatch, lines: Line[], auth: string): void {
    const expire = Math.min(lines.length, options.batchExpireLines ?? 0);
    lines.forEach((line, i) => {
      if (i >= lines.length - expire) return b.results.push({ custom_id: line.custom_id, outcome: 'expired' });
      const outcome = answer({ ...line.body, model: line.body.model ?? b.model }, auth, [], true);
      b.results.push({ custom_id: line.custom_id, outcome });
      const usage = (outcome.body as { usage?: Record<string, number> } | undefined)?.usage;
      if (outcome.status === 200 && usage) {
        b.usage.prompt_tokens += usage.prompt_tokens ?? 0;
        b.usage.completion_tokens += usage.completion_tokens ?? 0;
        b.usage.total_tokens += usage.total_tokens ?? 0;
      }
    });
    b.counts = {
      total: lines.length,
      completed: b.results.filter((r) => r.outcome !== 'expired' && r.outcome.status === 200).length,
      failed: b.results.filter((r) => r.outcome === 'expired' || r.outcome.status !== 200).length,
    };
  }

  /** The status a poll sees now: in progress until the delay has passed. */
  function current(b: StoredBatch): StoredBatch['status'] {
    if (b.status !== 'in_progress') return b.status;
    if (Date.now() - b.createdAt < (options.batchDelayMs ?? 0)) return 'in_progress';
    b.status = options.batchExpireLines ? 'expired' : 'completed';
    if (b.shape === 'openai') writeOutputFiles(b);
    return b.status;
  }

  const lineOf = (b: StoredBatch, r: StoredBatch['results'][number], i: number) => {
    const id = `batch_req_${b.id}_${i}`;
    if (r.outcome === 'expired') return { id, custom_id: r.custom_id, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } };
    const status = r.outcome.hang ? 500 : r.outcome.status;
    const body = r.outcome.hang ? apiError('The server had an error while processing this request.', 'server_error') : r.outcome.body;
    return { id, custom_id: r.custom_id, response: { status_code: status, request_id: `req_${i}`, body }, error: null };
  };

  function writeOutputFiles(b: StoredBatch): void {
    const lines = b.results.map((r, i) => lineOf(b, r, i));
    const ok = lines.filter((l) => l.response?.status_code === 200);
    const bad = lines.filter((l) => l.response?.status_code !== 200);
    const put = (ls: unknown[], name: string) => {
      const id = `file-${++ids}`;
      const text = ls.map((l) => JSON.stringify(l));
      if (name.endsWith('_output.jsonl')) {
        const torn = Math.min(text.length, options.batchTornLines ?? 0);
        for (let i = 0; i < torn; i++) text[i] = text[i].slice(0, text[i].indexOf('"response"') + 20);
        for (let i = 0; i < Math.min(text.length, options.batchDuplicateLines ?? 0); i++) {
          const again = JSON.parse(JSON.stringify(ls[ls.length - 1 - i])) as { response: { body: { choices: { message: { content: string } }[] } } };
          again.response.body.choices[0].message.content = 'a second, different answer';
          text.push(JSON.stringify(again));
        }
        if (options.batchGarbageLine) text.push('<html>502 Bad Gateway</html>');
      }
      files.set(id, { bytes: Buffer.from(text.join('\n') + '\n'), filename: name, purpose: 'batch_output' });
      return id;
    };
    if (ok.length) b.outputFileId = put(ok, `${b.id}_output.jsonl`);
    if (bad.length) b.errorFileId = put(bad, `${b.id}_error.jsonl`);
  }

  function batchObject(b: StoredBatch) {
    const status = current(b);
    const common = { id: b.id, object: 'batch', endpoint: '/v1/chat/completions', completion_window: '24h', created_at: Math.floor(b.createdAt / 1000), status };
    const terminal = status !== 'in_progress' && status !== 'validating';
    const counts = terminal ? b.counts : { total: b.counts.total, completed: 0, failed: 0 };
    if (b.shape === 'openai') {
      return {
        ...common,
        input_file_id: b.inputFileId,
        output_file_id: terminal ? (b.outputFileId ?? null) : null,
        error_file_id: terminal ? (b.errorFileId ?? null) : null,
        errors: b.refusal ? { object: 'list', data: [{ code: 'invalid_request', message: b.refusal, line: null, param: null }] } : null,
        request_counts: counts,
        metadata: null,
      };
    }
    // OpenRouter: results inline once terminal, exactly one of response or error per line.
    const results = terminal
      ? b.results.map((r, i) => {
          const l = lineOf(b, r, i);
          if (l.response?.status_code === 200) return { custom_id: l.custom_id, id: l.id, response: l.response, error: null };
          const err = (l.response?.body as { error?: { message?: string; type?: string } } | undefined)?.error;
          return { custom_id: l.custom_id, id: l.id, response: null, error: l.error ?? { message: err?.message ?? 'failed', type: err?.type ?? 'server_error', param: null } };
        })
      : null;
    return { ...common, model: b.model, error: b.refusal ? { message: b.refusal } : null, finalized_at: terminal ? 0 : null, request_counts: counts, results, usage: terminal ? b.usage : null };
  }

  function create(shape: StoredBatch['shape'], model: string, lines: Line[], auth: string, inputFileId?: string): StoredBatch {
    const id = `batch_${++ids}`;
    const b: StoredBatch = { id, shape, lines: lines.length, createdAt: Date.now(), polls: 0, status: 'in_progress', model, inputFileId, results: [], counts: { total: lines.length, completed: 0, failed: 0 }, usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } };
    if (options.batchRefusal) {
      b.status = 'failed';
      b.refusal = options.batchRefusal;
      options.batchRefusal = undefined;
    } else run(b, lines, auth);
    store.set(id, b);
    records.push(b);
    return b;
  }

  async function readBody(req: http.IncomingMessage): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  const parseLines = (text: string): Line[] =>
    text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Line);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const auth = String(req.headers.authorization ?? '');
    if (options.apiKey !== undefined && auth !== `Bearer ${options.apiKey}`) return send(req, res, 401, apiError('Incorrect API key provided.', 'invalid_request_error'));
    const raw = await readBody(req);
    if (options.batchForget && /\/batches\/[^/]+/.test(path)) {
      store.clear();
      options.batchForget = undefined;
    }
    const fileContent = /\/files\/([^/]+)\/content$/.exec(path);
    if (req.method === 'GET' && fileContent) {
      const f = files.get(fileContent[1]);
      if (!f) return send(req, res, 404, apiError(`No such File object: ${fileContent[1]}`, 'invalid_request_error'));
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/octet-stream' });
      return void res.end(f.bytes);
    }
    if (req.method === 'POST' && path.endsWith('/files')) {
      const form = await new Response(new Uint8Array(raw), { headers: { 'content-type': String(req.headers['content-type'] ?? '') } }).formData();
      const file = form.get('file');
      if (!(file instanceof Blob)) return send(req, res, 400, apiError("Missing required parameter: 'file'.", 'invalid_request_error'));
      const id = `file-${++ids}`;
      files.set(id, { bytes: Buffer.from(await file.arrayBuffer()), filename: (file as File).name ?? 'upload.jsonl', purpose: String(form.get('purpose') ?? '') });
      return send(req, res, 200, fileObject(id));
    }
    if (req.method === 'POST' && path.endsWith('/batches')) {
      let body: { input_file_id?: string; requests?: Line[]; model?: string; endpoint?: string };
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return send(req, res, 400, apiError('request body is not JSON', 'invalid_request_error'));
      }
      if (body.endpoint !== '/v1/chat/completions') return send(req, res, 400, apiError(`Unsupported endpoint: ${body.endpoint}`, 'invalid_request_error'));
      if (body.requests) {
        // OpenRouter stream-parses the body: endpoint and model must come before the requests.
        const text = raw.toString('utf8');
        if (text.indexOf('"requests"') < Math.max(text.indexOf('"endpoint"'), text.indexOf('"model"'))) {
          return send(req, res, 400, apiError('endpoint and model must be serialized before requests', 'invalid_request_error'));
        }
        return send(req, res, 202, batchObject(create('inline', body.model ?? '', body.requests, auth)));
      }
      const f = body.input_file_id ? files.get(body.input_file_id) : undefined;
      if (!f) return send(req, res, 400, apiError(`Invalid input_file_id: ${body.input_file_id}`, 'invalid_request_error'));
      const lines = parseLines(f.bytes.toString('utf8'));
      return send(req, res, 200, batchObject(create('openai', lines[0]?.body.model ?? '', lines, auth, body.input_file_id)));
    }
    const one = /\/batches\/([^/]+)(\/cancel)?$/.exec(path);
    const b = one ? store.get(one[1]) : undefined;
    if (!one || !b) return send(req, res, 404, apiError(`No batch found with id '${one?.[1] ?? ''}'.`, 'invalid_request_error'));
    if (one[2] && req.method === 'POST') {
      if (current(b) === 'in_progress') b.status = 'cancelled';
      return send(req, res, 200, batchObject(b));
    }
    b.polls++;
    return send(req, res, 200, batchObject(b));
  }

  return {
    records,
    handles: (method: string, path: string) => options.batchApi !== 'none' && /\/(files|batches)(\/|$)/.test(path) && (method === 'GET' || method === 'POST'),
    handle: (req: http.IncomingMessage, res: http.ServerResponse, path: string) =>
      handle(req, res, path).catch((e: unknown) => send(req, res, 500, apiError(String(e), 'server_error'))),
  };
}
