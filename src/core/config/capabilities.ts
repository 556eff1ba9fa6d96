/**
 * What an endpoint's model accepts (issue #44): the connection test (and the runner's `doctor`)
 * asks the endpoint and the answers are kept with the connection; a 400 that names a parameter
 * mid-run corrects them (llm/refusals.ts, remembered in llm/learned-capabilities.ts). Until either
 * has spoken, the model's name is a first guess. Requests are built from these (llm/chat-wire.ts,
 * llm/responses-wire.ts); Connect and the runner's `doctor` say them (`describeCapabilities`).
 */

/** Reasoning efforts, from least to most reasoning; a model accepts some of them. */
export const EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];
/** A role's effort: '' sends none (the model's default). */
export type ReasoningEffort = '' | Effort;

/** The wire a role speaks: Chat Completions, or the Responses API (reasoning kept between turns). */
export const WIRES = ['chat', 'responses'] as const;
export type Wire = (typeof WIRES)[number];

export type JsonMode = 'json_schema' | 'json_object' | 'text';

export interface Capabilities {
  /** The endpoint and model these were found for: stale (and ignored) once either changes. */
  baseURL: string;
  model: string;
  /** When the probe ran (ISO date); absent for a guess or what a run learned. */
  checkedAt?: string;
  api: Wire;
  /** A temperature other than the model's default is accepted. */
  temperature: boolean;
  /** How Chat Completions takes the output limit (the Responses API has only max_output_tokens). */
  tokenLimit: 'max_tokens' | 'max_completion_tokens';
  /** Efforts accepted: [] when the model takes none; absent when not known (the role's is sent as it is). */
  efforts?: Effort[];
  /**
   * With function tools, the efforts accepted ('' = none sent, the model's default); absent: no
   * limit known. OpenAI's reasoning models take tools on Chat Completions only with 'none'.
   */
  toolEfforts?: ReasoningEffort[];
  /** Function tools are accepted at all (absent: not asked). */
  tools?: boolean;
  /** `parallel_tool_calls` is accepted (absent: not asked). */
  parallelToolCalls?: boolean;
  /** The strictest structured output the endpoint keeps to (absent: not asked yet). */
  jsonMode?: JsonMode;
}

/** The first guess: OpenAI's reasoning families by name (o1, o3, o4…, gpt-5*, gpt-6*). */
const REASONING_NAME = /(^|\/)(o\d|gpt-[5-9])/i;

export function isReasoningModel(cfg: { model: string; reasoningModel?: boolean }): boolean {
  if (cfg.reasoningModel !== undefined) return cfg.reasoningModel;
  return REASONING_NAME.test(cfg.model);
}

/** What the name suggests, before anyone has asked the endpoint. */
export function guessCapabilities(cfg: { baseURL: string; model: string; reasoningModel?: boolean }): Capabilities {
  const reasoning = isReasoningModel(cfg);
  return {
    baseURL: cfg.baseURL,
    model: cfg.model,
    api: 'chat',
    temperature: !reasoning,
    tokenLimit: reasoning ? 'max_completion_tokens' : 'max_tokens',
  };
}

/** Stored capabilities that belong to this endpoint and model (a changed model makes them stale). */
export function storedFor(
  cfg: { baseURL: string; model: string },
  stored: Capabilities | undefined,
): Capabilities | undefined {
  return stored && stored.baseURL === cfg.baseURL && stored.model === cfg.model ? stored : undefined;
}

const rank = (e: ReasoningEffort) => EFFORTS.indexOf(e === '' ? 'medium' : e);

/** The accepted effort nearest to the one asked for (a tie goes to more reasoning). */
export function nearestEffort<T extends ReasoningEffort>(wanted: ReasoningEffort, accepted: readonly T[]): T {
  return [...accepted].sort(
    (a, b) => Math.abs(rank(a) - rank(wanted)) - Math.abs(rank(b) - rank(wanted)) || rank(b) - rank(a),
  )[0];
}

/**
 * The effort a request carries ('' sends none): the role's, moved to the nearest the model
 * accepts — and, with tools, to one it accepts beside them.
 */
export function effortFor(wanted: ReasoningEffort, caps: Capabilities, tools: boolean): ReasoningEffort {
  let e: ReasoningEffort = wanted;
  if (e && caps.efforts) e = caps.efforts.length ? nearestEffort(e, caps.efforts) : '';
  if (tools && caps.toolEfforts?.length && !caps.toolEfforts.includes(e)) e = nearestEffort(e, caps.toolEfforts);
  return e;
}

/**
 * Assumed hidden reasoning tokens per call, by effort (billed as output). Reasoning varies widely
 * with the task; the meter counts what each call really used once the run starts.
 */
export const ASSUMED_REASONING_TOKENS: Record<Effort, number> = {
  none: 0,
  minimal: 100,
  low: 400,
  medium: 1200,
  high: 3000,
  xhigh: 6000,
  max: 10000,
};

/** What each effort asks of a model, for the guide's table and Connect. */
export const EFFORT_MEANING: Record<Effort, string> = {
  none: 'No reasoning: fastest and cheapest. On Chat Completions, the only effort GPT-5.6 and GPT-6 Luna take beside function tools.',
  minimal: 'A few reasoning tokens (GPT-5’s lowest; GPT-5.1 and later refuse it).',
  low: 'Little reasoning.',
  medium:
    'The default of GPT-5.6 and GPT-6 when none is sent (GPT-5.4’s is none); the estimate counts a reasoning model with no effort set here.',
  high: 'More reasoning, slower and dearer.',
  xhigh: 'Still more (GPT-5.4 and later).',
  max: 'The most a model offers (GPT-5.6 and GPT-6).',
};

/** What each wire is, for the guide's table. */
export const WIRE_MEANING: Record<Wire, { name: string; said: string }> = {
  chat: {
    name: 'Chat Completions (`/chat/completions`)',
    said: 'Every OpenAI-compatible endpoint. A reasoning model’s reasoning is dropped between an agent’s turns; some take tools only with effort none, or not at all.',
  },
  responses: {
    name: 'Responses API (`/responses`)',
    said: 'OpenAI’s, and gateways that copy it; the probe chooses it on api.openai.com, where it is the only wire, and for a target that takes tools on Chat Completions with no effort it accepts (so does a refusal mid-run). Reasoning items go back with the calls they led to (`store: false`).',
  },
};

/** The guide's table of efforts and wires (`npm run docs` writes it into docs/guide.md). */
export function effortsMarkdown(): string {
  const efforts = EFFORTS.map(
    (e) => `| \`${e}\` | ${EFFORT_MEANING[e]} | ${ASSUMED_REASONING_TOKENS[e].toLocaleString('en-US')} |`,
  );
  const wires = WIRES.map((w) => `| \`"api": "${w}"\` | ${WIRE_MEANING[w].name} | ${WIRE_MEANING[w].said} |`);
  return [
    '| effort | what it asks | reasoning tokens per call the estimate assumes |',
    '|---|---|---|',
    ...efforts,
    '',
    '| wire | API | what Skillwright does there |',
    '|---|---|---|',
    ...wires,
  ].join('\n');
}

/**
 * The effort a role's calls reason at, for the estimate's reasoning tokens: its own, else the
 * model's default (medium, on OpenAI's reasoning models) when its name says it reasons, else none;
 * moved to the nearest the model accepts when the probe found its efforts.
 */
export function estimatedEffort(e: {
  baseURL: string;
  model: string;
  reasoningEffort?: ReasoningEffort;
  reasoningModel?: boolean;
  capabilities?: Capabilities;
}): Effort {
  const wanted: Effort = e.reasoningEffort || (isReasoningModel(e) ? 'medium' : 'none');
  const accepted = storedFor(e, e.capabilities)?.efforts;
  if (!accepted) return wanted;
  return accepted.length ? nearestEffort(wanted, accepted) : 'none';
}

const list = (xs: readonly string[]) => xs.map((x) => x || 'the default').join(', ');

/** What the capabilities say, one line each, for Connect and the runner's `doctor`. */
export function describeCapabilities(c: Capabilities): string[] {
  const lines = [
    c.api === 'responses'
      ? 'API: Responses (a reasoning model’s reasoning is carried between an agent’s turns)'
      : 'API: Chat Completions',
    c.temperature ? 'temperature: accepted' : 'temperature: refused (the model’s default is used)',
  ];
  if (c.api === 'chat') lines.push(`output limit: ${c.tokenLimit}`);
  if (c.efforts) lines.push(c.efforts.length ? `reasoning efforts: ${list(c.efforts)}` : 'reasoning effort: not taken');
  if (c.tools === false) lines.push('function tools: refused');
  else if (c.toolEfforts?.length)
    lines.push(`function tools: only with reasoning effort ${list(c.toolEfforts)} (agent turns are sent so)`);
  else if (c.tools) lines.push('function tools: accepted');
  if (c.parallelToolCalls !== undefined)
    lines.push(`parallel_tool_calls: ${c.parallelToolCalls ? 'accepted' : 'refused (not sent)'}`);
  if (c.jsonMode)
    lines.push(
      c.jsonMode === 'text' ? 'structured output: none (replies read from text)' : `structured output: ${c.jsonMode}`,
    );
  return lines;
}

/** What is wrong with capabilities read from a config file or a bundle, or null. */
export function capabilitiesProblem(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object (as `skillwright doctor` prints it)';
  const c = v as Record<string, unknown>;
  if (typeof c.baseURL !== 'string' || typeof c.model !== 'string') return 'must name its "baseURL" and "model"';
  if (!WIRES.includes(c.api as Wire)) return `"api" must be one of ${WIRES.join(', ')}`;
  if (typeof c.temperature !== 'boolean') return '"temperature" must be true or false';
  if (c.tokenLimit !== 'max_tokens' && c.tokenLimit !== 'max_completion_tokens')
    return '"tokenLimit" must be max_tokens or max_completion_tokens';
  const efforts = (k: string, blank: boolean) =>
    c[k] === undefined ||
    (Array.isArray(c[k]) && c[k].every((e) => EFFORTS.includes(e as Effort) || (blank && e === '')));
  if (!efforts('efforts', false)) return `"efforts" must list some of ${EFFORTS.join(', ')}`;
  if (!efforts('toolEfforts', true)) return `"toolEfforts" must list some of ${EFFORTS.join(', ')} (or "")`;
  for (const k of ['tools', 'parallelToolCalls'])
    if (c[k] !== undefined && typeof c[k] !== 'boolean') return `"${k}" must be true or false`;
  if (c.jsonMode !== undefined && !['json_schema', 'json_object', 'text'].includes(c.jsonMode as string))
    return '"jsonMode" must be json_schema, json_object or text';
  return null;
}

/** The efforts a role may choose on Connect: those the probe found accepted, else all of them. */
export function effortChoices(e: { baseURL: string; model: string; capabilities?: Capabilities }): readonly Effort[] {
  return storedFor(e, e.capabilities)?.efforts ?? EFFORTS;
}
