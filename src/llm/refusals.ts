/**
 * A 400 that names a parameter or a value the model does not accept (issue #44), read into a
 * change of its capabilities: the parameter dropped or the value changed, said in words for the
 * run's log. Anything else stays an error (llm/errors.ts).
 */
import { APIError } from 'openai';
import {
  EFFORTS,
  nearestEffort,
  type Capabilities,
  type Effort,
  type JsonMode,
  type ReasoningEffort,
} from '../core/config/capabilities';

/** What a refused request carried that a refusal may name. */
export interface Sent {
  temperature: boolean;
  /** The output limit's parameter, when one was sent. */
  tokenLimit?: 'max_tokens' | 'max_completion_tokens' | 'max_output_tokens';
  effort: ReasoningEffort;
  tools: boolean;
  /** The structured output asked for, when the request asked for JSON. */
  jsonMode?: JsonMode;
}

export interface Refusal {
  /** The parameter the endpoint named (OpenAI's `param`), lower case; '' when it named none. */
  param: string;
  message: string;
}

/** A 400 or 422 with the endpoint's words, or null for any other failure. */
export function refusalOf(e: unknown): Refusal | null {
  if (!(e instanceof APIError) || (e.status !== 400 && e.status !== 422)) return null;
  const body = e.error as { message?: unknown; param?: unknown } | undefined;
  const message = typeof body?.message === 'string' ? body.message : e.message;
  const param = typeof e.param === 'string' ? e.param : typeof body?.param === 'string' ? body.param : '';
  return { param: param.toLowerCase(), message };
}

export interface Adaptation {
  caps: Capabilities;
  /** What changed, to follow "The target model gpt-x …" in the run's log. */
  change: string;
}

/** The refusal names one of these parameters: as its `param`, or in its words. */
const names = (r: Refusal, ...words: string[]) =>
  words.some(
    (w) =>
      r.param === w ||
      r.param.endsWith(`.${w}`) ||
      new RegExp(`(^|[^a-z_.])${w.replace('.', '\\.')}([^a-z_]|$)`, 'i').test(r.message),
  );
const NOT_TAKEN =
  /unsupported|not supported|does not support|unrecognized|unknown|not allowed|invalid|only the default/i;
const list = (xs: readonly string[]) => xs.map((x) => x || 'the default').join(', ');

/** Efforts a refusal lists as supported ("Supported values are: 'none', 'low' and 'high'."). */
function supportedEfforts(message: string): Effort[] | null {
  const m = /supported values are:?([^.]*)/i.exec(message);
  if (!m) return null;
  const found = [...m[1].matchAll(/'([a-z]+)'|"([a-z]+)"/gi)].map((x) => (x[1] ?? x[2]).toLowerCase());
  const efforts = EFFORTS.filter((e) => found.includes(e));
  return efforts.length ? efforts : null;
}

/**
 * No effort the model takes goes beside function tools on Chat Completions (OpenAI's GPT-6 Astra
 * refuses tools with every effort there, and refuses 'none' itself): the Responses API takes tools
 * with any effort, and keeps the reasoning between an agent's turns.
 */
function toResponses(caps: Capabilities): Adaptation {
  const { toolEfforts: _chatOnly, ...rest } = caps;
  return {
    caps: { ...rest, api: 'responses' },
    change:
      'takes function tools on Chat Completions with no reasoning effort it accepts: its calls go to the Responses API, which takes them with any',
  };
}

/** Efforts the model is known to take ('' sends none, always taken), of those given. */
const taken = (efforts: readonly ReasoningEffort[], accepted: readonly Effort[] | undefined) =>
  efforts.filter((e) => e === '' || !accepted || accepted.includes(e));

function effortChange(r: Refusal, caps: Capabilities, sent: Sent): Adaptation | null {
  if (sent.tools && /tools/i.test(r.message)) {
    // Function tools refused beside reasoning (OpenAI's reasoning models on Chat Completions).
    const asked: ReasoningEffort[] = caps.toolEfforts ?? ['', ...(caps.efforts ?? EFFORTS)];
    const left = /'none'|"none"/.test(r.message)
      ? (['none'] as ReasoningEffort[])
      : asked.filter((e) => e !== sent.effort);
    if (caps.api === 'chat' && !taken(left, caps.efforts).length && /responses/i.test(r.message))
      return toResponses(caps);
    if (!left.length || (left.length === asked.length && left.every((e, i) => e === asked[i]))) return null;
    return {
      caps: { ...caps, toolEfforts: left, tools: true },
      change: `takes function tools only with reasoning effort ${list(left)}: its agent turns are sent so (the Responses API keeps reasoning beside tools)`,
    };
  }
  const supported = supportedEfforts(r.message);
  if (supported) {
    if (!sent.effort || supported.includes(sent.effort as Effort)) return null;
    // The effort tools were allowed with is itself refused: none is left for tools on this wire.
    if (sent.tools && caps.api === 'chat' && caps.toolEfforts && !taken(caps.toolEfforts, supported).length)
      return toResponses({ ...caps, efforts: supported });
    return {
      caps: { ...caps, efforts: supported },
      change: `accepts reasoning efforts ${list(supported)}: ${sent.effort} is sent as ${nearestEffort(sent.effort, supported)}`,
    };
  }
  if (!sent.effort) return null;
  if (/unsupported value|invalid value|does not support '/i.test(r.message)) {
    const left = (caps.efforts ?? EFFORTS).filter((e) => e !== sent.effort);
    return {
      caps: { ...caps, efforts: left },
      change: `refused reasoning effort ${sent.effort}: ${left.length ? `it is sent as ${nearestEffort(sent.effort, left)}` : 'none is sent'}`,
    };
  }
  return { caps: { ...caps, efforts: [] }, change: 'takes no reasoning effort: it is no longer sent' };
}

const JSON_DOWN: Record<JsonMode, JsonMode> = { json_schema: 'json_object', json_object: 'text', text: 'text' };

/**
 * The change a refusal asks for, or null when it names nothing this request sent (then it is an
 * error). One parameter per refusal: a request refused twice is adapted twice.
 */
export function adaptTo(r: Refusal, caps: Capabilities, sent: Sent): Adaptation | null {
  if (sent.temperature && names(r, 'temperature') && NOT_TAKEN.test(r.message))
    return {
      caps: { ...caps, temperature: false },
      change: 'refused temperature: it is no longer sent (the model’s default is used)',
    };
  if (sent.tokenLimit === 'max_tokens' && names(r, 'max_tokens'))
    return {
      caps: { ...caps, tokenLimit: 'max_completion_tokens' },
      change: 'wants max_completion_tokens instead of max_tokens',
    };
  if (sent.tokenLimit === 'max_completion_tokens' && names(r, 'max_completion_tokens') && NOT_TAKEN.test(r.message))
    return { caps: { ...caps, tokenLimit: 'max_tokens' }, change: 'wants max_tokens instead of max_completion_tokens' };
  if (names(r, 'reasoning_effort', 'reasoning.effort', 'effort')) return effortChange(r, caps, sent);
  const json = sent.jsonMode;
  if (
    json &&
    json !== 'text' &&
    (names(r, 'response_format', 'text.format', 'json_schema', 'json_object') ||
      /structured|schema|not supported|unsupported/i.test(r.message))
  ) {
    const next = JSON_DOWN[json];
    return {
      caps: { ...caps, jsonMode: next },
      change: `refused ${json} output: ${next === 'text' ? 'replies are read from text' : `it is asked for ${next}`}`,
    };
  }
  return null;
}
