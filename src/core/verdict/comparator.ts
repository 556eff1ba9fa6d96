/**
 * How a run compares two skills item by item (issue #41 item 4): by the mean of settled answers
 * (issue #19, `paired-verdict.ts`) or by the posterior over the target's noise (issue #32,
 * `paired-posterior.ts`). Chosen once per run from its gate settings; the engine's context holds
 * the choice and every comparison of the run reads it there.
 */
export type ComparatorKind = 'mean' | 'posterior';

/**
 * The posterior weighs counts of items known: it needs a confidence asked and the hard metric,
 * and takes no density bonus (a bonus is a score on the skill's text, not an item known).
 */
export function comparatorOf(c: {
  gateConfidence?: number;
  gateMetric: string;
  densityWeight?: number;
}): ComparatorKind {
  return (c.gateConfidence ?? 0) > 0 && c.gateMetric === 'hard' && !((c.densityWeight ?? 0) > 0) ? 'posterior' : 'mean';
}
