/**
 * "No worse" (issue #43 item 4): the verdict a drop that saves tokens needs. A section whose effect
 * is nil earns nothing, yet its drop only ties — and the gate asks for a gain. Such a drop may be
 * taken when the validation verdict says it is no worse: under posterior verdicts (the run's
 * `gateConfidence`), the chance the candidate knows fewer validation items than the skill as it is
 * stays within 1 − confidence (0.3 by default: at least 70 % sure it lost nothing); under the mean
 * comparator, no validation item is worse after its samples were settled. Raw means never decide:
 * a noisy target's lucky draw could hide a loss. A verdict on part of the items says nothing.
 */
import type { PairedVerdict } from './paired-verdict';

export interface NoWorseVerdict {
  noWorse: boolean;
  /** The chance the candidate knows fewer items (posterior verdicts); null under the mean comparator. */
  pWorse: number | null;
  /** Why, in words for the person. */
  words: string;
}

export function noWorseVerdict(v: PairedVerdict | null, o: { confidence: number; items: number }): NoWorseVerdict {
  if (!v || v.n === 0) return { noWorse: false, pWorse: null, words: 'the two skills were not compared' };
  if (v.n < o.items)
    return {
      noWorse: false,
      pWorse: v.posterior?.pWorse ?? null,
      words: `only ${v.n} of ${o.items} validation items were compared`,
    };
  const p = v.posterior;
  if (p && o.confidence > 0) {
    const pct = Math.round(p.pWorse * 100);
    const bound = Math.round((1 - o.confidence) * 100);
    return p.pWorse <= 1 - o.confidence
      ? {
          noWorse: true,
          pWorse: p.pWorse,
          words: `a ${pct} % chance it knows fewer validation items (at most ${bound} %)`,
        }
      : {
          noWorse: false,
          pWorse: p.pWorse,
          words: `a ${pct} % chance it knows fewer validation items (over ${bound} %)`,
        };
  }
  return v.regressed.length
    ? { noWorse: false, pWorse: null, words: `${v.regressed.length} validation item(s) worse` }
    : { noWorse: true, pWorse: null, words: 'no validation item worse' };
}

/** Why the gate took or refused a drop, after its scores: better, or no worse and cheaper (a tie that saves tokens), or neither. */
export function dropWhy(d: { basis: string; noWorse: string; tokensSaved: number }): string {
  const saved = `${Math.round(Math.abs(d.tokensSaved))} prompt tokens per task ${d.tokensSaved >= 0 ? 'fewer' : 'more'}`;
  if (d.basis === 'better') return ': better';
  if (d.basis === 'no_worse_cheaper') return `: no worse (${d.noWorse}) and cheaper, ${saved}`;
  return `: not better, and not both no worse and cheaper (${d.noWorse}; ${saved})`;
}
