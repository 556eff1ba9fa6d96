/**
 * The autonomous learning rate (algorithm doc §3.4): the optimizer decides how many edits to
 * apply this step. Its answer is coerced the reference's way: a boolean is invalid, an integer
 * is floored at 0, anything else gives the first integer of its text (a float its integer part);
 * a missing or unusable value means 0 edits, marked as a fallback.
 */
export interface LrDecision {
  learningRate: number;
  rawLearningRate: unknown;
  availableItems: number;
  clamped: boolean;
  fallback: boolean;
}

export function coerceLearningRate(raw: unknown): number | null {
  if (raw === undefined || raw === null || typeof raw === 'boolean') return null;
  if (typeof raw === 'number' && Number.isInteger(raw)) return Math.max(0, raw);
  // Anything else gives the first integer of its text, as the reference's str() does:
  // 2.7 → "2.7" → 2, [1] → "[1]" → 1 (issue #20 item 18).
  const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
  const m = /-?\d+/.exec(text ?? '');
  return m ? Math.max(0, Number(m[0])) : null;
}

export function decideLearningRate(raw: unknown, availableItems: number): LrDecision {
  const v = coerceLearningRate(raw);
  const fallback = v === null;
  const wanted = v ?? 0;
  return {
    learningRate: Math.min(wanted, availableItems),
    rawLearningRate: raw,
    availableItems,
    clamped: wanted > availableItems,
    fallback,
  };
}
