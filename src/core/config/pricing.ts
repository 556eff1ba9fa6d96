/**
 * List prices in USD per million tokens (issue #44): each with the day it was read and where, the
 * cached-input price where the provider has one (used where the endpoint reports cached tokens),
 * and the shutdown date the provider announced. They are a starting point: the user can edit them,
 * and providers change prices — the Connect screen says when each was checked. A model with no
 * entry has no price: Connect asks for one and the estimate says "unknown", never $0.
 */

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
  /** Prompt tokens served from the provider's cache; the input price when unset. */
  cachedInput?: number;
}

export interface ListPrice extends Price {
  /** The day the price was read (ISO date). */
  checked: string;
  /** Where it was read. */
  source: string;
  /** The provider's announced shutdown date (ISO date), for its dated snapshots. */
  retires?: string;
}

const TODAY = '2026-11-27';
const MODEL_PAGE = (m: string) => `https://developers.openai.com/api/docs/models/${m}`;
const LLM_PRICES = 'https://github.com/simonw/llm-prices/blob/main/data/openai.json';
/** OpenAI's notice of 2026-06-11: the GPT-5 and o3 snapshots leave the API on 2026-12-11. */
const GPT5_RETIRES = '2026-12-11';
/** OpenAI's deprecations page, as issue #44 cites it (the page itself was not read here). */
const GPT4_RETIRES = '2027-01-14';

export const PRICE_PRESETS: Record<string, ListPrice> = {
  // Current OpenAI models (read 2026-11-27).
  'gpt-6-luna': { input: 0.1, cachedInput: 0.01, output: 0.5, checked: TODAY, source: MODEL_PAGE('gpt-6-luna') },
  'gpt-6.2-sol': { input: 2, cachedInput: 0.1, output: 10, checked: TODAY, source: MODEL_PAGE('gpt-6.2-sol') },
  'gpt-6.2-astra': {
    input: 8,
    output: 40,
    checked: TODAY,
    source: 'https://apidog.com/blog/gpt-6-2-astra-api (citing OpenAI’s model page of 2026-11-18)',
  },
  'gpt-6.1-sol': {
    input: 2,
    cachedInput: 0.1,
    output: 10,
    checked: TODAY,
    source: 'https://docs.litellm.ai/blog/gpt_6_1_sol',
  },
  'gpt-6-sol': {
    input: 2,
    cachedInput: 0.2,
    output: 10,
    checked: TODAY,
    source: 'https://docs.litellm.ai/blog/gpt_6_sol_luna, https://inference.sh/apps/openai/gpt-6-sol',
  },
  'gpt-6-astra': {
    input: 10,
    cachedInput: 1,
    output: 50,
    checked: TODAY,
    source: 'https://github.com/BerriAI/litellm/discussions/39633',
  },
  'gpt-5.6-luna': { input: 0.2, cachedInput: 0.02, output: 1.2, checked: TODAY, source: MODEL_PAGE('gpt-5.6-luna') },
  'gpt-5.6-terra': {
    input: 2,
    cachedInput: 0.2,
    output: 12,
    checked: TODAY,
    source: 'https://github.com/TheKrush/PromptFuel/releases/tag/v1.0.19 (OpenAI’s price of 2026-07-30)',
  },
  'gpt-5.6-sol': { input: 4, cachedInput: 0.4, output: 20, checked: TODAY, source: 'https://docs.apiyi.com/models' },
  'gpt-5.5': { input: 5, cachedInput: 0.5, output: 30, checked: TODAY, source: LLM_PRICES },
  'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15, checked: TODAY, source: LLM_PRICES },
  'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5, checked: TODAY, source: LLM_PRICES },
  'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, output: 1.25, checked: TODAY, source: MODEL_PAGE('gpt-5.4-nano') },
  // Retiring: their shutdown dates as OpenAI announced them.
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10, checked: TODAY, source: LLM_PRICES, retires: GPT5_RETIRES },
  'gpt-5-mini': {
    input: 0.25,
    cachedInput: 0.025,
    output: 2,
    checked: TODAY,
    source: LLM_PRICES,
    retires: GPT5_RETIRES,
  },
  'gpt-5-nano': {
    input: 0.05,
    cachedInput: 0.005,
    output: 0.4,
    checked: TODAY,
    source: MODEL_PAGE('gpt-5-nano'),
    retires: GPT5_RETIRES,
  },
  o3: {
    input: 2,
    cachedInput: 0.5,
    output: 8,
    checked: '2025-06-10',
    source: 'OpenAI’s price after its June 2025 cut, as this table had it',
    retires: GPT5_RETIRES,
  },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4, checked: TODAY, source: LLM_PRICES },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8, checked: TODAY, source: LLM_PRICES, retires: GPT4_RETIRES },
  'gpt-4.1-mini': {
    input: 0.4,
    cachedInput: 0.1,
    output: 1.6,
    checked: TODAY,
    source: LLM_PRICES,
    retires: GPT4_RETIRES,
  },
  'gpt-4.1-nano': {
    input: 0.1,
    cachedInput: 0.025,
    output: 0.4,
    checked: TODAY,
    source: LLM_PRICES,
    retires: GPT4_RETIRES,
  },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10, checked: TODAY, source: LLM_PRICES, retires: GPT4_RETIRES },
  'gpt-4o-mini': {
    input: 0.15,
    cachedInput: 0.075,
    output: 0.6,
    checked: TODAY,
    source: LLM_PRICES,
    retires: GPT4_RETIRES,
  },
};

/** The table's entry for a model name, matching the longest known prefix (e.g. "gpt-4o-mini-2024-07-18"). */
export function listPrice(model: string): (ListPrice & { model: string }) | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  const key = Object.keys(PRICE_PRESETS)
    .filter((k) => name === k || name.startsWith(`${k}-`))
    .sort((a, b) => b.length - a.length)[0];
  return key ? { ...PRICE_PRESETS[key], model: key } : undefined;
}

/** The list price of a model (input, output, cached input), or undefined when the table has none. */
export function presetPrice(model: string): Price | undefined {
  const p = listPrice(model);
  return p
    ? { input: p.input, output: p.output, ...(p.cachedInput !== undefined ? { cachedInput: p.cachedInput } : {}) }
    : undefined;
}

/** A model's announced shutdown, and whether `today` (ISO date) is past it. */
export function retirementOf(model: string, today: string): { date: string; retired: boolean } | undefined {
  const date = listPrice(model)?.retires;
  return date ? { date, retired: today >= date } : undefined;
}

/**
 * What is wrong with a price as typed or read from a file, or null: each part must be finite and
 * at least 0 — a negative price would make spending shrink and turn the budget cap off.
 */
export function priceProblem(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object with "input" and "output"';
  const p = v as Record<string, unknown>;
  for (const k of Object.keys(p))
    if (k !== 'input' && k !== 'output' && k !== 'cachedInput')
      return `has "${k}", which is not "input", "output" or "cachedInput"`;
  for (const k of ['input', 'output', 'cachedInput'] as const) {
    if (k === 'cachedInput' && p[k] === undefined) continue;
    if (typeof p[k] !== 'number' || !Number.isFinite(p[k]) || p[k] < 0)
      return `"${k}" must be a number ≥ 0 (USD per million tokens)`;
  }
  return null;
}
