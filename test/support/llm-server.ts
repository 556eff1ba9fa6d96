/**
 * An OpenAI-compatible test server on 127.0.0.1 (DESIGN §8): chat completions (plain and
 * streaming, with response_format), GET /models, CORS that echoes the requested headers,
 * fixed latency and fault injection — and a rule world (rule-world.ts) that the simulated
 * target and optimizer live in, so training has something real to learn. Every answer is a
 * pure function of the request, so runs against it are deterministic.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BROAD_WORLD, HARD_WORLD, expectedAnswer, hardTargetAnswer, hardWorldExpected, parseQuestion, simulatedTargetAnswer, type HardWorldSpec } from './rule-world';
import { hardOptimizerAnswer } from './hard-optimizer';
import { hashFraction, withSkillInTrajectories } from './sim-text';
import { describerReply, isTriggerPrompt, triggerDecision, triggerExpected } from './trigger-world';
import { simulatedOptimizerAnswer, stageOf, type ChatBody } from '../../src/core/simulators/demo-optimizer';
import { createBatchRoutes, type BatchRecord, type BatchServerOptions, type ChatOutcome } from './batch-routes';
import { agenticOptimizerAnswer } from './agentic-optimizer';
import { agenticPolicy } from './agentic-target';
import { simulatedUserReply, type UserSimulatorKind } from './simulated-user';
import { harnessTurn, housekeepingOf, housekeepingReply, optimizerTaskOf, skillToLoad, textOf } from './harness-agent';
import { chatOfResponses, reasoningLedger, responseOfChat, writeResponseEvents, type ResponsesBody } from './responses-route';
import { capabilityRefusal, type CapabilityOptions, type CapabilityRequest } from './capability-rules';
import { forgetCapabilities } from '../../src/llm/learned-capabilities';

export type FaultKind = '429' | '500' | '401' | 'timeout' | 'malformed' | 'empty' | 'drop' | 'truncated' | 'filtered' | 'refusal' | 'bad_param' | 'length_empty';

export interface FaultRule {
  kind: FaultKind;
  /** Only requests of this stage ('target' for rollouts, or an optimizer stage name). */
  stage?: string;
  /** How many matching requests get the fault; unlimited when unset. */
  times?: number;
  /** Let this many matching requests through before the fault starts. */
  after?: number;
  /** Seconds for the Retry-After header of a 429. */
  retryAfter?: number;
  /** Only requests whose messages (system and user, joined by a newline) match. */
  match?: RegExp;
  /** The error message of a 401, 500 or bad_param fault, in place of the usual one. */
  message?: string;
}

export interface ServerOptions extends BatchServerOptions, CapabilityOptions {
  latencyMs: number;
  /** echo: allow whatever headers the preflight asks for; basic: only Authorization and Content-Type (a strict proxy); none: no CORS. */
  cors: 'echo' | 'basic' | 'none';
  /** When set, any other bearer token gets a 401. */
  apiKey?: string;
  models: string[];
  /** json_schema response_format accepted? (json_object and text are always accepted unless below.) */
  jsonSchema: boolean;
  jsonObject: boolean;
  /** Behave like a reasoning model: refuse max_tokens and a non-default temperature with a 400. */
  reasoningOnly?: boolean;
  /**
   * A reasoning model on the Responses API (issue #44): a reasoning item before each turn's calls,
   * and a request that sends the calls back without it refused (responses-route.ts reasoningLedger).
   */
  reasoningItems?: boolean;
  /** Answer only the Responses API (/chat/completions is not there), as a Codex-only gateway. */
  responsesOnly?: boolean;
  /** Report this share of each prompt's tokens as served from the cache (prompt_tokens_details.cached_tokens). */
  cachedShare?: number;
  /** Report this many completion tokens per reply (reasoning-size calls), whatever the text. */
  completionTokens?: number;
  /** Send replies without a usage object. */
  omitUsage?: boolean;
  /** Share of reflect_failure answers that add the harmful rule, decided by a hash of the prompt. */
  harmfulRate: number;
  faults: FaultRule[];
  /**
   * Which rule world the simulated models live in (rule-world.ts; agentic: agentic-world.ts, a
   * tool-using agent — its target acts through `agentPolicy`, its noise is per action).
   */
  world: 'easy' | 'hard' | 'broad' | 'agentic';
  /** Hard world: how often the simulated optimizer slips (0 = never, 1 = the world's rates). */
  noise: number;
  /**
   * A stochastic target (issue #19): it misses this share of the answers it knows and guesses
   * this share of those it does not. Each request is a fresh sample: a changed skill re-draws,
   * and the same prompt asked again draws anew (the k-th identical prompt uses draw k).
   */
  targetNoise?: { miss: number; guess: number };
  /** Seeds the target's draws, so runs on separate servers see different noise. */
  noiseSeed?: number;
  /**
   * A single-answer target's own answer, before the world's: `draw` ∈ [0, 1) is the k-th identical
   * prompt's draw, as for `targetNoise` (a flaky rule, issue #43). Undefined: the world answers.
   */
  targetHook?: (system: string, user: string, draw: number) => string | undefined;
  /** Hard worlds: the world's own spec (its families, grade marks, blind families, start), in place of the named world's. */
  spec?: HardWorldSpec;
  /** Hard worlds: share of bundle repairs that also slip in a harmful or broad rule. */
  repairSlip?: number;
  /** The activation track's describer (trigger-world.ts): share of rewrites that are over-broad, and as many that forget. */
  describerSlip?: number;
  /** Keep each request's user message in the log (for tests that read prompts). */
  keepPrompts?: boolean;
  /** The `service_tier` values accepted (issue #22); any other is a 400. Unset: the parameter is ignored. */
  serviceTiers?: readonly string[];
  /**
   * A reasoning model that thinks aloud (issue #23): every reply starts with a `<think>` block
   * holding a decoy answer and decoy JSON; the target's real answer follows, without tags.
   */
  thinkWrap?: boolean;
  /** Accept a json_schema response format but not keep to it (Ollama Cloud, issue #23). */
  ignoreSchema?: boolean;
  /**
   * A context window this many tokens long that silently drops the rest of a longer prompt, as
   * Ollama's OpenAI endpoint does at 2 048/4 096 (issue #23): reported prompt tokens stop there.
   */
  contextTokens?: number;
  /** Flex capacity: every n-th flex request is refused with OpenAI's 429 "Resource Unavailable". */
  flexUnavailableEvery?: number;
  /**
   * How the simulated target acts when a request offers tools (issue #30): a pure function of the
   * conversation, the offered tools and a draw in [0, 1) (1 without noise), returning the calls of
   * the next turn or a final answer.
   */
  agentPolicy?: AgentPolicy;
  /**
   * How the user simulator plays its part (issue #31; simulated-user.ts): 'goal' follows its goal
   * (the default), 'never' is never satisfied (the engine's limit of user messages ends it).
   */
  userSimulator?: UserSimulatorKind;
  /**
   * A model's own answers (issue #42 item 5: a skill that helps one target and hurts another): the
   * target's answer to a single-answer request by that model, or undefined to leave it to the world's.
   */
  modelHook?: (model: string, system: string, user: string) => string | undefined;
  /** A world's own optimizer: its answer for a stage (the activation track's describe_skill too), or undefined to leave it to the world's. */
  optimizerHook?: (stage: string, system: string, user: string) => unknown;
  /** Port to listen on; 0 picks a free one. */
  port: number;
}

/** A tool-calling request as the simulated target reads it. */
export interface AgentRequest {
  system: string;
  /** The first user message: the task. */
  user: string;
  /** The whole conversation, in the chat API's wire form. */
  messages: readonly WireMessage[];
  tools: readonly { name: string; description?: string; parameters?: unknown }[];
}

export interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export type AgentReply = { toolCalls: { name: string; arguments: unknown }[] } | { content: string };
export type AgentPolicy = (req: AgentRequest, draw: number) => AgentReply;

export interface RequestLogEntry {
  at: number;
  stage: string;
  model: string;
  status: number;
  responseFormat?: string;
  /** The request's `service_tier`, when it sent one. */
  serviceTier?: string;
  /** The user and system messages, kept only with `keepPrompts`. */
  user?: string;
  system?: string;
  /** The request's header names (lower case). */
  headerNames?: string[];
  /** Answered as a line of a batch, not as a live call. */
  viaBatch?: boolean;
  /** The Responses API brought it (issue #44). */
  wire?: 'responses';
  /** The parameters the request carried (under their chat names), e.g. temperature, max_tokens. */
  params?: string[];
  /** Its reasoning effort, when it sent one. */
  effort?: string;
}

export interface LlmTestServer {
  url: string;
  port: number;
  options: ServerOptions;
  log: RequestLogEntry[];
  /** Batches created (issue #22 item 4), oldest first. */
  batches: BatchRecord[];
  /** Function calls sent back with the reasoning item that led to them (`reasoningItems`). */
  reasoningCarried(): number;
  set(partial: Partial<ServerOptions>): void;
  /** Calls per stage among successful (200) responses. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

export const DEFAULTS: ServerOptions = {
  latencyMs: 0,
  cors: 'echo',
  models: ['sim-target', 'sim-optimizer'],
  jsonSchema: true,
  jsonObject: true,
  harmfulRate: 0.25,
  faults: [],
  world: 'easy',
  noise: 1,
  port: 0,
};

/** The simulated optimizer: the hard world's own, else the rule world's (src/core/simulators/demo-optimizer.ts). */
function worldSpec(opts: Pick<ServerOptions, 'world' | 'spec'>): HardWorldSpec | null {
  const named = opts.world === 'hard' ? HARD_WORLD : opts.world === 'broad' ? BROAD_WORLD : null;
  return named && opts.spec ? opts.spec : named;
}

function optimizerAnswer(stage: string, system: string, user: string, opts: ServerOptions): unknown {
  const own = opts.optimizerHook?.(stage, system, user);
  if (own !== undefined) return own;
  if (opts.world === 'agentic') {
    const agentic = agenticOptimizerAnswer(stage, system, user, { noise: opts.noise });
    if (agentic !== undefined) return agentic;
  }
  const spec = worldSpec(opts);
  if (spec) {
    const hard = hardOptimizerAnswer(stage, system, user, { noise: opts.noise, spec, repairSlip: opts.repairSlip });
    if (hard !== undefined) return hard;
  }
  return simulatedOptimizerAnswer(stage, user, { harmfulRate: opts.harmfulRate, fraction: hashFraction }, system);
}

/** The expected answer of a world's question (what a lucky guess says), or null. */
function expectedFor(user: string, opts: ServerOptions): string | null {
  const spec = worldSpec(opts);
  if (spec) return hardWorldExpected(user, spec);
  const q = parseQuestion(user);
  return q ? expectedAnswer(q.topics, q.specimen) : null;
}

/** `draw` ∈ [0, 1) decides a stochastic target's slip; without noise the answer is the world's. */
function targetAnswer(system: string, user: string, opts: ServerOptions, draw: number): string {
  const spec = worldSpec(opts);
  // The activation track's question (prompts/rollout-trigger.md): would the agent load the skill?
  const trigger = isTriggerPrompt(system);
  const own = trigger ? undefined : opts.targetHook?.(system, user, draw);
  if (own !== undefined) return `Looking at the question and the rules.\n<answer>${own}</answer>`;
  let answer = trigger
    ? triggerDecision(system, user)
    : spec
      ? hardTargetAnswer(system, user, spec)
      : simulatedTargetAnswer(system, user);
  const expected = !opts.targetNoise ? null : trigger ? triggerExpected(user) : expectedFor(user, opts);
  if (opts.targetNoise && expected !== null) {
    if (answer === expected && draw < opts.targetNoise.miss) answer = draw < opts.targetNoise.miss / 2 ? 'unknown' : `${expected.replace(/-(\d+)/, '-0$1')}`;
    else if (answer !== expected && draw < opts.targetNoise.guess) answer = expected;
  }
  return `Looking at the question and the rules.\n<answer>${answer}</answer>`;
}

/** A reasoning model's hidden tokens per reply, at any effort but none (billed as output). */
const reasoningTokens = (effort?: string) => (effort && effort !== 'none' ? 16 : 0);

/** Characters of a request's messages (an assistant turn that only called tools has null content). */
function charsOf(body: ChatBody): number {
  return (body.messages ?? []).reduce((n, m) => n + String(m.content ?? '').length, 0);
}

function agentRequestOf(body: ChatBody, system: string, user: string): AgentRequest {
  const raw = body as unknown as { messages?: WireMessage[]; tools?: { function?: { name: string; description?: string; parameters?: unknown } }[] };
  const firstUser = raw.messages?.find((m) => m.role === 'user')?.content ?? user;
  return {
    system,
    user: firstUser,
    messages: raw.messages ?? [],
    tools: (raw.tools ?? []).flatMap((t) => (t.function ? [t.function] : [])),
  };
}

/**
 * A request as the simulated models read it: content-part arrays (pi, Qwen Code, Codex) become
 * their text, and a `developer` message is a system message.
 */
export function normalizeChat(body: ChatBody): ChatBody {
  const raw = body as unknown as { messages?: (WireMessage & { content: unknown })[] };
  if (!raw.messages) return body;
  const messages = raw.messages.map((m) => ({
    ...m,
    role: m.role === 'developer' ? 'system' : m.role,
    content: m.content === null && m.tool_calls ? null : textOf(m.content),
  }));
  const system = messages.filter((m) => m.role === 'system');
  // One system message (harnesses may send several): the simulated models read the first.
  const merged = system.length > 1 ? [{ role: 'system', content: system.map((m) => m.content).join('\n\n') }] : system;
  return { ...body, messages: [...merged, ...messages.filter((m) => m.role !== 'system')] } as ChatBody;
}

export async function startLlmServer(partial: Partial<ServerOptions> = {}): Promise<LlmTestServer> {
  const options: ServerOptions = { ...DEFAULTS, ...partial, faults: [...(partial.faults ?? [])] };
  const log: RequestLogEntry[] = [];
  const faultUses = new Map<FaultRule, number>();
  let flexRequests = 0;
  // How often each target prompt was asked: the k-th identical prompt is the k-th sample.
  const samples = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();

  const corsHeaders = (req: http.IncomingMessage): Record<string, string> =>
    options.cors === 'none'
      ? {}
      : {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          'Access-Control-Allow-Headers': options.cors === 'basic' ? 'authorization, content-type' : String(req.headers['access-control-request-headers'] ?? 'authorization, content-type'),
          'Access-Control-Max-Age': '600',
          'Access-Control-Expose-Headers': 'retry-after, x-request-id',
        };

  const send = (req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...corsHeaders(req), 'Content-Type': 'application/json', ...extra });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const apiError = (message: string, type: string, param?: string, code?: string) => ({
    error: { message, type, code: code ?? null, ...(param ? { param } : {}) },
  });
  const ledger = reasoningLedger();
  /** Cached prompt tokens and reasoning tokens, as OpenAI's usage details say them. */
  const usageDetails = (promptTokens: number, effort?: string) => ({
    ...(options.cachedShare ? { prompt_tokens_details: { cached_tokens: Math.floor(promptTokens * options.cachedShare) } } : {}),
    ...(reasoningTokens(effort) ? { completion_tokens_details: { reasoning_tokens: reasoningTokens(effort) } } : {}),
  });

  const takeFault = (stage: string, text: string): FaultRule | undefined => {
    for (const f of options.faults) {
      if (f.stage && f.stage !== stage) continue;
      if (f.match && !f.match.test(text)) continue;
      const seen = faultUses.get(f) ?? 0;
      faultUses.set(f, seen + 1);
      const skip = f.after ?? 0;
      if (seen < skip) continue;
      if (f.times !== undefined && seen - skip >= f.times) continue;
      return f;
    }
    return undefined;
  };

  /**
   * One chat completion, as a pure outcome: the synchronous route sends it, a batch writes it
   * as one output line. `viaBatch` marks its log entry (batch lines are not live calls).
   */
  // The agentic world's agent acts unless a test brings its own policy.
  const worldAgent = agenticPolicy(() => options.targetNoise);
  const policy = () => options.agentPolicy ?? (options.world === 'agentic' ? worldAgent : undefined);
  const agentTurn = (body: ChatBody) => Boolean(policy() && (body as { tools?: unknown[] }).tools?.length);
  const harnessListsSkill = (body: ChatBody) => {
    if (!(body as { tools?: unknown[] }).tools?.length) return false;
    const r = agentRequestOf(body, '', '');
    return skillToLoad({ ...r, toolText: r.tools.map((t) => t.description ?? '').join('\n') }) !== null;
  };
  const answer = (body: ChatBody, auth: string, headerNames: string[], viaBatch = false): ChatOutcome => {
    const housekeeping = housekeepingOf(String(body.messages?.find((m) => m.role === 'system')?.content ?? ''));
    const named = housekeeping ? 'housekeeping' : stageOf(body);
    // An agent CLI as the optimizer: its model reads the optimizer's prompt as the harness's task.
    const asked = named === 'target' ? optimizerTaskOf(body.messages ?? []) : null;
    const stage = asked?.stage ?? named;
    const model = body.model ?? '';
    const tier = (body as { service_tier?: string }).service_tier;
    const wire = (body as CapabilityRequest).wire;
    const effort = (body as CapabilityRequest).reasoning_effort;
    const record = (status: number) =>
      log.push({
        at: Date.now(),
        stage,
        model,
        status,
        responseFormat: body.response_format?.type,
        ...(wire ? { wire } : {}),
        params: Object.keys(body).filter((k) => k !== 'messages' && k !== 'model' && k !== 'wire'),
        ...(effort !== undefined ? { effort } : {}),
        ...(tier !== undefined ? { serviceTier: tier } : {}),
        headerNames,
        ...(viaBatch ? { viaBatch: true } : {}),
        ...(options.keepPrompts
          ? {
              user: body.messages?.filter((m) => m.role === 'user').map((m) => m.content).join('\n'),
              system: body.messages?.filter((m) => m.role === 'system').map((m) => m.content).join('\n'),
            }
          : {}),
      });
    const fail = (status: number, body: unknown, headers?: Record<string, string>): ChatOutcome => {
      record(status);
      return { status, body, headers };
    };
    if (options.apiKey !== undefined && auth !== `Bearer ${options.apiKey}`) return fail(401, apiError('Incorrect API key provided.', 'invalid_request_error'));
    if (!options.models.includes(model)) return fail(404, apiError(`The model \`${model}\` does not exist.`, 'invalid_request_error'));
    if (options.reasoningOnly && (body.max_tokens !== undefined || (body.temperature !== undefined && body.temperature !== 1))) {
      const param = body.max_tokens !== undefined ? 'max_tokens' : 'temperature';
      return fail(400, apiError(`Unsupported parameter: '${param}' is not supported with this model.${param === 'max_tokens' ? " Use 'max_completion_tokens' instead." : ''}`, 'invalid_request_error'));
    }
    const refused = capabilityRefusal(body as CapabilityRequest, options);
    if (refused) return fail(400, apiError(refused.message, 'invalid_request_error', refused.param, refused.code));
    const rf = body.response_format?.type;
    if ((rf === 'json_schema' && !options.jsonSchema) || (rf === 'json_object' && !options.jsonObject)) {
      const param = wire ? 'text.format' : 'response_format';
      return fail(400, apiError(`response_format ${rf} is not supported by this model`, 'invalid_request_error', param));
    }
    if (tier !== undefined && options.serviceTiers && !options.serviceTiers.includes(tier)) {
      return fail(400, apiError(`Invalid value for 'service_tier': '${tier}'.`, 'invalid_request_error'));
    }
    if (tier === 'flex' && options.flexUnavailableEvery && ++flexRequests % options.flexUnavailableEvery === 0) {
      const msg = 'Resource Unavailable: there is not enough capacity for flex processing right now. Please retry later.';
      return fail(429, apiError(msg, 'resource_unavailable'), { 'retry-after': '0' });
    }
    const fault = takeFault(stage, (body.messages ?? []).map((m) => String(m.content ?? '')).join('\n'));
    if (fault?.kind === '429') return fail(429, apiError('Rate limit reached.', 'rate_limit_error'), { 'retry-after': String(fault.retryAfter ?? 0) });
    if (fault?.kind === '500') return fail(500, apiError(fault.message ?? 'The server had an error.', 'server_error'));
    if (fault?.kind === 'filtered') {
      const message = 'The response was filtered due to the prompt triggering the content management policy.';
      return fail(400, { error: { message, type: 'invalid_request_error', code: 'content_filter' } });
    }
    if (fault?.kind === 'bad_param') return fail(400, apiError(fault.message ?? 'Unrecognized request argument supplied: frobnicate', 'invalid_request_error'));
    if (fault?.kind === 'refusal') {
      const message = { role: 'assistant', content: null, refusal: "I can't help with that." };
      return fail(200, { id: 'chatcmpl-refusal', created: 0, model, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    }
    if (fault?.kind === '401') return fail(401, apiError(fault.message ?? 'Incorrect API key provided.', 'invalid_request_error'));
    if (fault?.kind === 'timeout' || fault?.kind === 'drop') {
      record(0);
      return { status: 0, hang: fault.kind };
    }
    const system = asked?.prompt ?? body.messages?.find((m) => m.role === 'system')?.content ?? '';
    const user = asked?.prompt ?? body.messages?.filter((m) => m.role === 'user').map((m) => m.content).join('\n') ?? '';
    let text: string;
    if (fault?.kind === 'empty' || fault?.kind === 'length_empty') text = '';
    else if (housekeeping) text = housekeepingReply(housekeeping);
    else if (user === 'Reply with the word OK.') text = 'OK'; // the connection test's probes
    else if (user.startsWith('Reply with the JSON object {"ok": true}')) {
      // The connection test's structured-output probe.
      text = rf === 'json_schema' && options.ignoreSchema ? 'Sure! ok is true.' : rf ? '{"ok": true}' : 'Here it is: {"ok": true}';
    } else if (stage === 'target' && (agentTurn(body) || harnessListsSkill(body))) {
      // An agent's turn: the k-th identical conversation is the k-th sample, as for answers.
      const prompt = JSON.stringify(body.messages);
      const k = samples.get(prompt) ?? 0;
      samples.set(prompt, k + 1);
      const draw = options.targetNoise ? hashFraction(`target noise|${options.noiseSeed ?? 0}|${k}|${prompt}`) : 1;
      const request = agentRequestOf(body, system, user);
      // A real harness (issue #42): the model loads the listed skill with the harness's own tools.
      const reply = agentTurn(body)
        ? policy()!(request, draw)
        : harnessTurn(request, (context, task) => targetAnswer(context, task, options, draw));
      if ('toolCalls' in reply) {
        const turn = (body.messages ?? []).filter((m) => m.role === 'assistant').length + 1;
        const tool_calls = reply.toolCalls.map((c, i) => ({
          id: `call_${turn}_${i + 1}`,
          type: 'function',
          function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
        }));
        record(200);
        const prompt = Math.ceil(charsOf(body) / 4);
        const usage = { prompt_tokens: prompt, completion_tokens: 20 + reasoningTokens(effort), total_tokens: 0, ...usageDetails(prompt, effort) };
        usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
        const message = { role: 'assistant', content: null, tool_calls };
        const base = { id: `chatcmpl-${log.length}`, created: 0, model };
        if (body.stream) return { status: 200, stream: { base, text: '', usage, toolCalls: tool_calls } };
        return { status: 200, body: { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'tool_calls' }], usage } };
      }
      text = reply.content;
    } else if (stage === 'target') {
      const prompt = `${system}\n\u0000${user}`;
      const k = samples.get(prompt) ?? 0;
      samples.set(prompt, k + 1);
      const own = options.modelHook?.(model, system, user);
      const drawn = options.targetNoise || options.targetHook;
      text =
        own !== undefined
          ? `Looking at the question and the rules.\n<answer>${own}</answer>`
          : targetAnswer(system, user, options, drawn ? hashFraction(`target noise|${options.noiseSeed ?? 0}|${k}|${prompt}`) : 1);
    } else {
      const answer = JSON.stringify(
        stage === 'describe_skill'
          ? (options.optimizerHook?.(stage, system, user) ?? describerReply(user, hashFraction(`describe|${user}`), options.describerSlip ?? 0.25))
          : stage === 'user_simulator'
            ? simulatedUserReply(system, user, options.userSimulator)
            : optimizerAnswer(stage, system, withSkillInTrajectories(user), options),
      );
      text = fault?.kind === 'malformed' ? 'My patch: {op: append, content: add a rule} — as discussed.' : rf ? answer : `Sure.\n\`\`\`json\n${answer}\n\`\`\``;
      // The output limit cut the reply mid-word: what jsonrepair would turn into partial edits.
      if (fault?.kind === 'truncated') text = text.slice(0, Math.max(1, Math.floor(text.length * 0.6)));
    }
    if (options.thinkWrap && text) {
      const decoy = '<think>\nPerhaps <answer>DECOY-0</answer>, or {"edits": [], "learning_rate": 0}? Let me check the rules.\n</think>\n';
      text = decoy + (stage === 'target' ? text.replace(/<\/?answer>/g, '') : text);
    }
    const seen = Math.ceil(charsOf(body) / 4);
    const prompt = options.contextTokens ? Math.min(options.contextTokens, seen) : seen;
    const usage = { prompt_tokens: prompt, completion_tokens: options.completionTokens ?? Math.ceil(text.length / 4) + reasoningTokens(effort), total_tokens: 0, ...usageDetails(prompt, effort) };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    record(200);
    const base = { id: `chatcmpl-${log.length}`, created: 0, model };
    if (body.stream) return { status: 200, stream: { base, text, usage } };
    const finish = fault?.kind === 'truncated' || fault?.kind === 'length_empty' ? 'length' : 'stop';
    const message = { role: 'assistant', content: text };
    return { status: 200, body: { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], ...(options.omitUsage ? {} : { usage }) } };
  };

  const batches = createBatchRoutes({ options, answer, send, apiError });

  const server = http.createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, corsHeaders(req));
      res.end();
      return;
    }
    const path = (req.url ?? '').replace(/\?.*$/, '');
    if (req.method === 'GET' && path.endsWith('/models')) {
      send(req, res, 200, { object: 'list', data: options.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'skillwright-test' })) });
      return;
    }
    if (batches.handles(req.method ?? '', path)) {
      void batches.handle(req, res, path);
      return;
    }
    const responses = req.method === 'POST' && path.endsWith('/responses');
    let wantsStream = false;
    let reasoningProblem: string | null = null;
    if (!responses && (req.method !== 'POST' || !path.endsWith('/chat/completions') || options.responsesOnly)) {
      send(req, res, 404, apiError(`no route ${req.method} ${path}`, 'invalid_request_error'));
      return;
    }
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      let body: ChatBody;
      try {
        const parsed = JSON.parse(raw) as ChatBody;
        body = normalizeChat(responses ? (chatOfResponses(parsed as ResponsesBody) as ChatBody) : parsed);
        if (responses) wantsStream = Boolean(parsed.stream);
        if (responses && options.reasoningItems) reasoningProblem = ledger.problem(parsed as ResponsesBody);
      } catch {
        send(req, res, 400, apiError('request body is not JSON', 'invalid_request_error'));
        return;
      }
      setTimeout(() => {
        if (reasoningProblem) return send(req, res, 400, apiError(reasoningProblem, 'invalid_request_error', 'input'));
        const out = answer(body, String(req.headers.authorization ?? ''), Object.keys(req.headers));
        if (out.hang === 'drop') return req.socket.destroy();
        if (out.hang === 'timeout') return; // never answer: the client's timeout fires
        if (responses && out.status === 200) {
          const chat = out.body as Parameters<typeof responseOfChat>[0];
          const calls = chat.choices[0]?.message.tool_calls ?? [];
          // OpenAI's call ids are unique: the ledger tells each conversation's calls apart by them.
          if (options.reasoningItems) for (const c of calls) c.id = `${c.id}_${log.length}`;
          // A reasoning model reasons before it calls: the item goes first, and must come back.
          const reasoning = options.reasoningItems && calls.length ? ledger.issue(calls.map((c) => c.id)) : undefined;
          const response = responseOfChat(chat, reasoning);
          if (!wantsStream) return send(req, res, 200, response);
          res.writeHead(200, { ...corsHeaders(req), 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
          return writeResponseEvents(res, response);
        }
        if (out.stream?.toolCalls) return writeToolCallStream(res, corsHeaders(req), out.stream);
        if (out.stream) {
          const { base, text, usage } = out.stream;
          res.writeHead(200, { ...corsHeaders(req), 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
          const parts = text.match(/[\s\S]{1,16}/g) ?? [''];
          parts.forEach((p, i) =>
            res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content: p } : { content: p }, finish_reason: null }] })}\n\n`),
          );
          res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage })}\n\n`);
          res.end('data: [DONE]\n\n');
          return;
        }
        send(req, res, out.status, out.body, out.headers);
      }, options.latencyMs);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // Test files share one realm (isolate: false): a port handed out again must not inherit what an
  // earlier server on it taught the clients (a refusal adapted there, e.g. effort none beside tools).
  if (!options.port) forgetCapabilities(`http://127.0.0.1:${port}/v1`);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    options,
    log,
    batches: batches.records,
    reasoningCarried: () => ledger.carried,
    set(p) {
      Object.assign(options, p);
      if (p.faults) faultUses.clear();
    },
    counts() {
      const c: Record<string, number> = {};
      for (const e of log) if (e.status === 200) c[e.stage] = (c[e.stage] ?? 0) + 1;
      return c;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A streamed turn that calls tools: the calls as `tool_calls` deltas, then finish_reason tool_calls with usage. */
function writeToolCallStream(
  res: http.ServerResponse,
  cors: Record<string, string>,
  s: NonNullable<ChatOutcome['stream']>,
): void {
  res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  const chunk = (delta: unknown, finish: string | null, extra = {}) =>
    res.write(`data: ${JSON.stringify({ ...s.base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  chunk({ role: 'assistant', content: null }, null);
  (s.toolCalls ?? []).forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }, null);
  });
  chunk({}, 'tool_calls', { usage: s.usage });
  res.end('data: [DONE]\n\n');
}
