/**
 * The LLM port over the official openai SDK (DESIGN §4). One SDK client per role; each role
 * has an adaptive pool, retries with backoff on transient failures (honouring retry-after),
 * a timeout per call, an AbortSignal through everything, and JSON output that falls back from
 * json_schema to json_object to plain text, remembering per endpoint and model what worked.
 */
import { withoutSdkHeaders } from './minimal-headers';
import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  type ChatMessage,
  type LlmError,
  type LlmPort,
  type LlmRequest,
  type LlmResponse,
  type Role,
} from '../engine/ports';
import { classifyError, isRetryable, retryAfterMs } from './errors';
import { AdaptivePool } from './pool';
import { isReasoningModel, type EndpointConfig } from './endpoint';
import { TargetBatchClient } from './batch-client';
import { readCompletion } from './read-completion';

/** Rate-limited attempts a call may retry (honouring retry-after), apart from its other retries. */
export const RATE_LIMIT_RETRIES = 12;

export type JsonMode = 'json_schema' | 'json_object' | 'text';

export interface ClientOptions {
  /** First backoff delay; doubles per attempt up to maxBackoffMs. */
  backoffBaseMs?: number;
  maxBackoffMs?: number;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Called after each finished call (for usage accounting and logs). */
  onCall?: (info: { role: Role; stage: string; response?: LlmResponse; error?: LlmError }) => void;
}

/** What each endpoint+model accepted for JSON output, shared by every client in this realm. */
const jsonModeMemory = new Map<string, JsonMode>();
/** Record how an endpoint answers structured output (the connection test's probe found out). */
export function rememberJsonMode(cfg: Pick<EndpointConfig, 'baseURL' | 'model'>, mode: JsonMode): void {
  jsonModeMemory.set(`${cfg.baseURL}|${cfg.model}`, mode);
}

export function rememberedJsonMode(cfg: EndpointConfig): JsonMode | undefined {
  return jsonModeMemory.get(`${cfg.baseURL}|${cfg.model}`);
}

/** Whether each endpoint+model turned out to want reasoning-model parameters (learned from its 400s). */
const reasoningMemory = new Map<string, boolean>();

/** A 400 refusing max_tokens / max_completion_tokens / temperature: the other parameter style is wanted. */
function looksLikeTokenParamRefused(e: unknown): boolean {
  if (!(e instanceof OpenAI.APIError) || (e.status !== 400 && e.status !== 422)) return false;
  return (
    /max_completion_tokens|max_tokens|temperature/i.test(e.message) &&
    /unsupported|not supported|does not support|use '?max_completion_tokens|only the default/i.test(e.message)
  );
}

function looksLikeFormatUnsupported(e: unknown): boolean {
  if (!(e instanceof OpenAI.APIError) || (e.status !== 400 && e.status !== 422)) return false;
  return /response_format|json_schema|json_object|structured|schema|not supported|unsupported/i.test(e.message);
}

/** Our message shape as the chat API's: tool calls and tool results in its wire form. */
export function toApiMessage(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length)
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  return { role: m.role, content: m.content };
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

  /** Reasoning-model parameters: the role's switch, else the name; corrected by the provider's 400. */
  private reasoning(): boolean {
    return reasoningMemory.get(`${this.cfg.baseURL}|${this.cfg.model}`) ?? isReasoningModel(this.cfg);
  }

  private params(req: LlmRequest, mode: JsonMode): ChatCompletionCreateParamsNonStreaming {
    const reasoning = this.reasoning();
    const p: ChatCompletionCreateParamsNonStreaming = {
      model: this.cfg.model,
      messages: req.messages.map(toApiMessage),
    };
    if (req.tools?.length)
      p.tools = req.tools.map((t) => ({
        type: 'function' as const,
        function: {
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          parameters: t.parameters ?? { type: 'object', properties: {} },
        },
      }));
    if (this.cfg.serviceTier) p.service_tier = this.cfg.serviceTier;
    if (!reasoning && this.cfg.temperature !== undefined) p.temperature = this.cfg.temperature;
    if (this.cfg.maxOutputTokens) {
      if (reasoning) p.max_completion_tokens = this.cfg.maxOutputTokens;
      else p.max_tokens = this.cfg.maxOutputTokens;
    }
    if (reasoning && this.cfg.reasoningEffort)
      p.reasoning_effort = this.cfg.reasoningEffort as 'low' | 'medium' | 'high';
    if (req.jsonSchema && mode === 'json_schema') {
      p.response_format = {
        type: 'json_schema',
        json_schema: { name: req.jsonSchema.name, schema: req.jsonSchema.schema, strict: true },
      };
    } else if (req.jsonSchema && mode === 'json_object') {
      p.response_format = { type: 'json_object' };
    }
    return p;
  }

  /** The body this role sends for a request, as one line of a batch: no service tier (a batch is its own tier). */
  batchBody(req: LlmRequest): ChatCompletionCreateParamsNonStreaming {
    const { service_tier: _tier, ...body } = this.params(req, 'text');
    return body;
  }

  async complete(req: LlmRequest): Promise<LlmResponse> {
    const memoryKey = `${this.cfg.baseURL}|${this.cfg.model}`;
    let mode: JsonMode = req.jsonSchema ? (jsonModeMemory.get(memoryKey) ?? 'json_schema') : 'text';
    const base = this.opts.backoffBaseMs ?? 1000;
    const maxBackoff = this.opts.maxBackoffMs ?? 30_000;
    const ctx = { role: this.role, baseURL: this.cfg.baseURL, model: this.cfg.model, secrets: [this.cfg.apiKey] };
    let attempt = 0;
    let rateLimits = 0;
    let flippedParams = false;
    for (;;) {
      attempt++;
      const started = Date.now();
      try {
        const res = await this.pool.run(
          () =>
            this.sdk.chat.completions.create(this.params(req, mode), {
              signal: req.signal,
              timeout: this.cfg.timeoutMs,
            }),
          req.signal,
        );
        this.pool.succeeded();
        const { text, usage, usageEstimated, finishReason, toolCalls } = readCompletion(res, req, this.role, this.cfg);
        if (req.jsonSchema) jsonModeMemory.set(memoryKey, mode);
        const response: LlmResponse = {
          text,
          usage,
          ...(usageEstimated ? { usageEstimated } : {}),
          latencyMs: Date.now() - started,
          attempts: attempt,
          jsonMode: mode,
          finishReason,
          ...(toolCalls ? { toolCalls } : {}),
        };
        this.opts.onCall?.({ role: this.role, stage: req.stage, response });
        return response;
      } catch (e) {
        // A pause or cancel rejects queued and waiting calls with the signal's reason (any value,
        // e.g. 'pause'): that is a cancelled call, never a server error row (issue #20 item 4).
        if (req.signal?.aborted) throw classifyError(new DOMException('Aborted', 'AbortError'), ctx);
        if (!flippedParams && looksLikeTokenParamRefused(e)) {
          // The model wants the other parameter style (a reasoning model, or one that is not):
          // switch once, remember it for this endpoint and model, and retry at once.
          reasoningMemory.set(memoryKey, !this.reasoning());
          flippedParams = true;
          attempt--;
          continue;
        }
        if (req.jsonSchema && mode !== 'text' && looksLikeFormatUnsupported(e)) {
          // The endpoint refuses this kind of structured output: step down and retry at once.
          mode = mode === 'json_schema' ? 'json_object' : 'text';
          attempt--;
          continue;
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
