/**
 * The autonomous learning rate (algorithm doc §3.4): the optimizer decides how many edits to
 * apply this step. Its answer is coerced the reference's way: a boolean is invalid, an integer
 * is floored at 0, an integral float becomes an integer, a string gives its first integer; a
 * missing or unusable value means 0 edits, marked as a fallback.
 */
export interface LrDecision {
  learningRate: number;
  rawLearningRate: unknown;
  availableItems: number;
  clamped: boolean;
  fallback: boolean;
}

export function coerceLearningRate(raw: unknown): number | null {
  if (typeof raw === 'boolean') return null;
  if (typeof raw === 'number') return Number.isInteger(raw) ? Math.max(0, raw) : null;
  if (typeof raw === 'string') {
    const m = /-?\d+/.exec(raw);
    return m ? Math.max(0, Number(m[0])) : null;
  }
  return null;
}

export function decideLearningRate(raw: unknown, availableItems: number): LrDecision {
  const v = coerceLearningRate(raw);
  const fallback = v === null;
  const wanted = v ?? 0;
  return { learningRate: Math.min(wanted, availableItems), rawLearningRate: raw, availableItems, clamped: wanted > availableItems, fallback };
}
