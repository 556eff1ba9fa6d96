/**
 * Default prices in USD per million tokens (input / output), as list prices were published
 * when this table was written. They are only a starting point: the user can edit them, and
 * providers change prices — check yours.
 */

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

export const PRICE_PRESETS: Record<string, Price> = {
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'o4-mini': { input: 1.1, output: 4.4 },
  o3: { input: 2, output: 8 },
};

/** The preset for a model name, matching the longest known prefix (e.g. "gpt-4o-mini-2024-07-18"). */
export function presetPrice(model: string): Price | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  const key = Object.keys(PRICE_PRESETS)
    .filter((k) => name === k || name.startsWith(`${k}-`))
    .sort((a, b) => b.length - a.length)[0];
  return key ? PRICE_PRESETS[key] : undefined;
}

/**
 * What is wrong with a price as typed or read from a file, or null: both parts must be finite and
 * at least 0 — a negative price would make spending shrink and turn the budget cap off.
 */
export function priceProblem(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object with "input" and "output"';
  const p = v as Record<string, unknown>;
  for (const k of Object.keys(p))
    if (k !== 'input' && k !== 'output') return `has "${k}", which is not "input" or "output"`;
  for (const k of ['input', 'output'] as const)
    if (typeof p[k] !== 'number' || !Number.isFinite(p[k]) || p[k] < 0)
      return `"${k}" must be a number ≥ 0 (USD per million tokens)`;
  return null;
}
