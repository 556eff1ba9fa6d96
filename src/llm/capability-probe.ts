/**
 * The connection test's questions to a model (issue #44), asked by Test connection and by the
 * runner's `doctor`: one tiny request per parameter or value — the wire (Chat Completions, or the
 * Responses API: OpenAI's choice for its models, and the only one some gateways speak), a
 * temperature, max_tokens or max_completion_tokens, each reasoning effort, function tools with
 * no effort and with each accepted one, `parallel_tool_calls`. A 400 is the endpoint saying no;
 * anything else (a rate limit, a timeout) leaves that answer to the first guess.
 */
import type { LlmRequest, Role } from '../engine/ports';
import { isLlmError } from '../engine/ports';
import {
  EFFORTS,
  guessCapabilities,
  type Capabilities,
  type ReasoningEffort,
  type Wire,
} from '../core/config/capabilities';
import { chatParams } from './chat-wire';
import type { EndpointConfig } from './endpoint';
import { RoleClient, type ClientOptions } from './openai-client';
import { responsesParams } from './responses-wire';

export const PROBE_PROMPT = 'Reply with the word OK.';
/** The probes' output limit: enough to answer, small enough to cost nothing. */
const PROBE_TOKENS = 16;
const NOOP_TOOL = {
  name: 'noop',
  description: 'Does nothing. Call it only if asked to.',
  parameters: { type: 'object', properties: {} },
};

type Answer = 'yes' | 'no' | 'unknown';

/** OpenAI's own API, where the Responses API is the one its models are made for. */
export function isOpenAI(baseURL: string): boolean {
  try {
    return new URL(baseURL).host === 'api.openai.com';
  } catch {
    return false;
  }
}

/** A few at a time: a probe is many small calls. */
async function inTurns<T, R>(items: readonly T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

export interface ProbeOptions extends Pick<ClientOptions, 'fetch'> {
  /** Ask about function tools (the target: an agent's turns carry them). */
  tools: boolean;
  now?: () => Date;
}

/** What the model accepts. Throws the endpoint's error when no wire answers a plain request. */
export async function probeCapabilities(role: Role, cfg: EndpointConfig, o: ProbeOptions): Promise<Capabilities> {
  const opts: ClientOptions = o.fetch ? { fetch: o.fetch } : {};
  const plain: EndpointConfig = {
    ...cfg,
    temperature: undefined,
    maxOutputTokens: undefined,
    reasoningEffort: '',
    concurrency: 1,
    maxRetries: 0,
  };
  const req = (tools = false): LlmRequest => ({
    role,
    stage: 'connection_test',
    messages: [{ role: 'user', content: PROBE_PROMPT }],
    ...(tools ? { tools: [NOOP_TOOL] } : {}),
  });
  const base = (api: Wire): Capabilities => ({
    baseURL: cfg.baseURL,
    model: cfg.model,
    api,
    temperature: false,
    tokenLimit: 'max_tokens',
  });
  /** One request with these settings: accepted, refused (a 400), or not known. */
  const ask = async (patch: Partial<EndpointConfig>, caps: Capabilities, tools = false): Promise<Answer> => {
    try {
      await new RoleClient(role, { ...plain, ...patch }, opts).complete(req(tools), caps);
      return 'yes';
    } catch (e) {
      if (!isLlmError(e)) throw e;
      // A reply cut off by the tiny limit still shows the request was taken.
      if (e.kind === 'truncated') return 'yes';
      return e.kind === 'bad_request' ? 'no' : 'unknown';
    }
  };

  // The wire: Chat Completions, unless the endpoint is OpenAI's or speaks only the Responses API.
  let api: Wire = cfg.api ?? 'chat';
  if (!cfg.api) {
    let chatError: unknown = null;
    try {
      await new RoleClient(role, plain, opts).complete(req(), base('chat'));
    } catch (e) {
      chatError = e;
    }
    if (chatError === null && !isOpenAI(cfg.baseURL)) api = 'chat';
    else {
      const responses = await ask({}, base('responses'));
      if (responses === 'yes') api = 'responses';
      else if (chatError !== null) throw chatError;
    }
  } else await new RoleClient(role, plain, opts).complete(req(), base(api));

  const guess = guessCapabilities(cfg);
  const temp = await ask({ temperature: cfg.temperature ?? 0 }, { ...base(api), temperature: true });
  const temperature = temp === 'unknown' ? guess.temperature : temp === 'yes';
  let tokenLimit = guess.tokenLimit;
  if (api === 'chat') {
    if ((await ask({ maxOutputTokens: PROBE_TOKENS }, base(api))) === 'yes') tokenLimit = 'max_tokens';
    else if (
      (await ask({ maxOutputTokens: PROBE_TOKENS }, { ...base(api), tokenLimit: 'max_completion_tokens' })) === 'yes'
    )
      tokenLimit = 'max_completion_tokens';
  }
  // From here every probe carries the small output limit, under the parameter the model takes.
  const known: Capabilities = { ...base(api), tokenLimit };
  const small = { maxOutputTokens: PROBE_TOKENS };
  const effortAnswers = await inTurns(EFFORTS, 4, (e) => ask({ ...small, reasoningEffort: e }, known));
  const efforts = effortAnswers.every((a) => a === 'unknown')
    ? undefined
    : EFFORTS.filter((_, i) => effortAnswers[i] === 'yes');

  const found: Capabilities = {
    ...known,
    temperature,
    ...(efforts ? { efforts } : {}),
    checkedAt: (o.now?.() ?? new Date()).toISOString(),
  };
  if (!o.tools) return found;

  const withTools: ReasoningEffort[] = ['', ...(efforts ?? [])];
  const toolAnswers = await inTurns(withTools, 4, (e) => ask({ ...small, reasoningEffort: e }, known, true));
  const taken = withTools.filter((_, i) => toolAnswers[i] === 'yes');
  const refused = toolAnswers.some((a) => a === 'no');
  const tools = toolAnswers.every((a) => a === 'unknown') ? undefined : taken.length > 0;
  // No effort takes tools on Chat Completions (OpenAI's GPT-6 Astra): the Responses API takes them
  // with any, when the endpoint has it. Its efforts are those found on Chat Completions; one it
  // refuses there is adapted to mid-run.
  if (tools === false && api === 'chat' && !cfg.api) {
    const responses: Capabilities = { ...found, api: 'responses' };
    if ((await ask({ ...small }, responses, true)) === 'yes') {
      const parallel = await parallelTaken(role, { ...plain, ...small }, responses, opts, req(true));
      return { ...responses, tools: true, ...(parallel !== undefined ? { parallelToolCalls: parallel } : {}) };
    }
  }
  // Only a limit is worth keeping: where every effort goes with tools, none is listed.
  const toolEfforts = tools && refused ? { toolEfforts: taken } : {};
  // Asked beside an effort the model takes tools with: a refused effort is not a refused parameter.
  const parallelToolCalls = tools
    ? await parallelTaken(role, { ...plain, ...small }, { ...known, ...toolEfforts }, opts, req(true))
    : undefined;
  return {
    ...found,
    ...(tools !== undefined ? { tools } : {}),
    ...toolEfforts,
    ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
  };
}

/** Does the endpoint take `parallel_tool_calls`? (Skillwright leaves it at the endpoint's default.) */
async function parallelTaken(
  role: Role,
  cfg: EndpointConfig,
  caps: Capabilities,
  opts: ClientOptions,
  req: LlmRequest,
): Promise<boolean | undefined> {
  const { sdk } = new RoleClient(role, cfg, opts);
  const signal = AbortSignal.timeout(Math.min(cfg.timeoutMs, 30_000));
  try {
    if (caps.api === 'responses')
      await sdk.responses.create(
        { ...responsesParams(req, cfg, caps, 'text').params, parallel_tool_calls: false },
        { signal },
      );
    else
      await sdk.chat.completions.create(
        { ...chatParams(req, cfg, caps, 'text').params, parallel_tool_calls: false },
        { signal },
      );
    return true;
  } catch (e) {
    const status = (e as { status?: number }).status;
    return status === 400 || status === 422 ? false : undefined;
  }
}
