/**
 * The LLM port over the official openai SDK (DESIGN §4). One SDK client per role; each role
 * has an adaptive pool, retries with backoff on transient failures (honouring retry-after),
 * a timeout per call, an AbortSignal through everything, and requests built from what the
 * model accepts (llm/capabilities.ts) on its wire — Chat Completions or the Responses API. A 400
 * naming a parameter or value it refuses is adapted (llm/refusals.ts), remembered per endpoint
 * and model, said in the response for the run's log, and the call asked again.
 */
import { withoutSdkHeaders } from './minimal-headers';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { type LlmError, type LlmPort, type LlmRequest, type LlmResponse, type Role } from '../engine/ports';
import { classifyError, isRetryable, retryAfterMs } from './errors';
import { AdaptivePool } from './pool';
import type { EndpointConfig } from './endpoint';
import { TargetBatchClient } from './batch-client';
import { readCompletion, type CompletionRead } from './read-completion';
import type { Capabilities, JsonMode } from '../core/config/capabilities';
import { capabilitiesOf, learnCapabilities } from './learned-capabilities';
import { chatParams } from './chat-wire';
import { readResponse, responsesParams } from './responses-wire';
import { adaptTo, refusalOf, type Sent } from './refusals';

export { toApiMessage } from './chat-wire';
export type { JsonMode };

/** Rate-limited attempts a call may retry (honouring retry-after), apart from its other retries. */
export const RATE_LIMIT_RETRIES = 12;
/** Refusals one call may adapt to (temperature, output limit, effort, tools, JSON…), each once. */
const MAX_ADAPTATIONS = 6;

export interface ClientOptions {
  /** First backoff delay; doubles per attempt up to maxBackoffMs. */
  backoffBaseMs?: number;
  maxBackoffMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Called after each finished call (for usage accounting and logs). */
  onCall?: (info: { role: Role; stage: string; response?: LlmResponse; error?: LlmError }) => void;
}

/** Record how an endpoint answers structured output (the connection test's probe found out). */
export function rememberJsonMode(cfg: Pick<EndpointConfig, 'baseURL' | 'model'>, mode: JsonMode): void {
  learnCapabilities({ ...capabilitiesOf(cfg), jsonMode: mode });
}

export function rememberedJsonMode(cfg: EndpointConfig): JsonMode | undefined {
  return capabilitiesOf(cfg).jsonMode;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class RoleClient {
  readonly pool: AdaptivePool;
  /** The SDK client, for the batch API's files and batches (llm/batch-client.ts). */
  readonly sdk: OpenAI;

  constructor(
    readonly role: Role,
    readonly cfg: EndpointConfig,
    private readonly opts: ClientOptions = {},
  ) {
    this.pool = new AdaptivePool(cfg.concurrency);
    this.sdk = new OpenAI({
      apiKey: cfg.apiKey || 'no-key',
      baseURL: cfg.baseURL,
      dangerouslyAllowBrowser: true, // the key is the user's own, in their own browser
      maxRetries: 0, // retries are ours: they must honour the pool and the abort signal
      timeout: cfg.timeoutMs,
      defaultHeaders: cfg.headers,
      ...(cfg.minimalHeaders ? { fetch: withoutSdkHeaders(opts.fetch) } : opts.fetch ? { fetch: opts.fetch } : {}),
    });
  }

  /** What this role's model accepts, as far as anyone knows now. */
  capabilities(): Capabilities {
    return capabilitiesOf(this.cfg);
  }

  /** The body this role sends for a request, as one line of a batch: no service tier (a batch is its own tier). */
  batchBody(req: LlmRequest): ChatCompletionCreateParamsNonStreaming {
    const { service_tier: _tier, ...body } = chatParams(req, this.cfg, this.capabilities(), 'text').params;
    return body;
  }

  /** One request on the wire the capabilities choose: what to send, and how to send and read it. */
  private request(
    req: LlmRequest,
    caps: Capabilities,
    mode: JsonMode,
  ): { sent: Sent; send: () => Promise<CompletionRead> } {
    const options = { signal: req.signal, timeout: this.cfg.timeoutMs };
    if (caps.api === 'responses') {
      const { params, sent } = responsesParams(req, this.cfg, caps, mode);
      return {
        sent,
        send: async () => readResponse(await this.sdk.responses.create(params, options), this.role, this.cfg),
      };
    }
    const { params, sent } = chatParams(req, this.cfg, caps, mode);
    return {
      sent,
      send: async () =>
        readCompletion(await this.sdk.chat.completions.create(params, options), req, this.role, this.cfg),
    };
  }

  /**
   * One call, retried and adapted. `probe`: the connection test's — these capabilities exactly,
   * no adaptation (a refusal is its answer) and nothing learned.
   */
  async complete(req: LlmRequest, probe?: Capabilities): Promise<LlmResponse> {
    const base = this.opts.backoffBaseMs ?? 1000;
    const maxBackoff = this.opts.maxBackoffMs ?? 30_000;
    const ctx = { role: this.role, baseURL: this.cfg.baseURL, model: this.cfg.model, secrets: [this.cfg.apiKey] };
    const adapted: string[] = [];
    let attempt = 0;
    let rateLimits = 0;
    let adaptations = 0;
    for (;;) {
      attempt++;
      const caps = probe ?? this.capabilities();
      const mode: JsonMode = req.jsonSchema ? (caps.jsonMode ?? 'json_schema') : 'text';
      const { sent, send } = this.request(req, caps, mode);
      const started = Date.now();
      try {
        const read = await this.pool.run(send, req.signal);
        this.pool.succeeded();
        // What structured output worked is remembered for every later call to this endpoint and model.
        if (!probe && req.jsonSchema && caps.jsonMode !== mode) learnCapabilities({ ...caps, jsonMode: mode });
        const response: LlmResponse = {
          ...read,
          latencyMs: Date.now() - started,
          attempts: attempt,
          jsonMode: mode,
          ...(adapted.length ? { adapted } : {}),
        };
        this.opts.onCall?.({ role: this.role, stage: req.stage, response });
        return response;
      } catch (e) {
        // A pause or cancel rejects queued and waiting calls with the signal's reason (any value,
        // e.g. 'pause'): that is a cancelled call, never a server error row (issue #20 item 4).
        if (req.signal?.aborted) throw classifyError(new DOMException('Aborted', 'AbortError'), ctx);
        const refusal = !probe && adaptations < MAX_ADAPTATIONS ? refusalOf(e) : null;
        if (refusal) {
          const now = this.capabilities();
          const moved = JSON.stringify(now) !== JSON.stringify(caps);
          const proposed = moved ? null : adaptTo(refusal, now, sent);
          // A wire chosen by hand is the person's: a refusal that would move it stays an error.
          const change = proposed && this.cfg.api && proposed.caps.api !== this.cfg.api ? null : proposed;
          // Another call adapted meanwhile (the request would differ now), or this refusal names
          // what was sent: change it, remember it, ask again at once. Neither is an attempt.
          if (moved || change) {
            if (change) {
              learnCapabilities(change.caps);
              adapted.push(`The ${this.role} model ${this.cfg.model} ${change.change}.`);
            }
            adaptations++;
            attempt--;
            continue;
          }
        }
        // 429 (and Groq's 498 for flex capacity) say "wait": a flex tier's "resource unavailable" too.
        const rateLimited = e instanceof OpenAI.APIError && (e.status === 429 || e.status === 498);
        if (rateLimited) rateLimits++;
        // A rate limit says "wait", not "broken": it has its own, more patient allowance, so a
        // storm slows the run down instead of failing the few calls that happen to be in flight.
        const withinRetries = rateLimited
          ? rateLimits <= Math.max(this.cfg.maxRetries, RATE_LIMIT_RETRIES)
          : attempt - rateLimits <= this.cfg.maxRetries;
        if (isRetryable(e) && withinRetries && !req.signal?.aborted) {
          const wait = retryAfterMs(e);
          if (rateLimited) this.pool.rateLimited(wait ?? base);
          const backoff = Math.min(maxBackoff, base * 2 ** (attempt - 1));
          try {
            await sleep(Math.max(wait ?? 0, backoff), req.signal);
          } catch {
            throw classifyError(new DOMException('Aborted', 'AbortError'), ctx);
          }
          continue;
        }
        const err = classifyError(e, ctx);
        this.opts.onCall?.({ role: this.role, stage: req.stage, error: err });
        throw err;
      }
    }
  }
}

export interface ClientSet {
  target: EndpointConfig;
  optimizer: EndpointConfig;
  judge?: EndpointConfig;
  /** The user simulator's endpoint (issue #31); the optimizer's when not given, as the judge's. */
  userSimulator?: EndpointConfig;
}

/** What of an endpoint shapes its answers: part of the rollout cache key. */
const settingsKey = (e: EndpointConfig & { agentCommand?: unknown }) =>
  JSON.stringify([
    e.baseURL,
    e.model,
    e.temperature ?? null,
    e.maxOutputTokens ?? null,
    e.reasoningEffort ?? '',
    // An agent CLI's command and where it reads the skill shape its answers too (none for an endpoint: keys unchanged).
    ...(e.agentCommand ? [e.agentCommand] : []),
  ]);

/** The engine's LlmPort: routes each request to the client of its role. */
export function createLlmPort(
  endpoints: ClientSet,
  opts: ClientOptions = {},
): LlmPort & { clients: Record<Role, RoleClient> } {
  const target = new RoleClient('target', endpoints.target, opts);
  const optimizer = new RoleClient('optimizer', endpoints.optimizer, opts);
  const judge = endpoints.judge ? new RoleClient('judge', endpoints.judge, opts) : optimizer;
  const sim = endpoints.userSimulator;
  const userSimulator = sim ? new RoleClient('userSimulator', sim, opts) : optimizer;
  const clients: Record<Role, RoleClient> = { target, optimizer, judge, userSimulator };
  const endpointOf = (role: Role): EndpointConfig =>
    role === 'judge' || role === 'userSimulator' ? (endpoints[role] ?? endpoints.optimizer) : endpoints[role];
  const t = endpoints.target;
  return {
    clients,
    complete: (req) => clients[req.role].complete(req),
    ...(t.batchApi ? { targetBatch: new TargetBatchClient(target, t.batchApi, t.batchPollMs) } : {}),
    targetSettingsKey: () => settingsKey(endpoints.target),
    settingsKey: (role) => settingsKey(endpointOf(role)),
    outputLimit: (role) => endpointOf(role).maxOutputTokens,
  };
}
