/**
 * Each section's effect from masked evaluations (issue #43 item 4): per validation item, a least-
 * squares fit of its score on which sections the mask kept (an intercept and one coefficient per
 * section: what keeping the section adds, the others held at their mix); the effect is the mean
 * of the items' coefficients, and its interval comes from resampling items (seeded bootstrap) —
 * a section may help some items and hurt others (Assay), and which items were drawn is what makes
 * the figure uncertain. A stochastic target's slips show up in the items' coefficients and widen
 * the interval with them. Errored rollouts are never scores: an item fitted from too few masks to
 * tell its sections apart is left out and counted.
 */
import { SeededRandom } from '../basics/random';
import type { MaskDesign } from './section-masks';

/** One scored rollout: the mask it ran under, its item, and its value (a pass 0/1, or tokens). */
export interface MaskedScore {
  mask: number;
  itemId: string;
  value: number;
}

export interface SectionEffect {
  section: number;
  /** Mean over items of what keeping the section adds. */
  effect: number;
  /** The interval's bounds (the chosen level, over resampled items). */
  low: number;
  high: number;
}

export interface SectionEffects {
  effects: SectionEffect[];
  /** The fitted score with every section masked (the preamble alone). */
  base: number;
  /** Items fitted, and items left out (too few scored masks to tell the sections apart). */
  items: number;
  leftOut: number;
}

/** Least squares by the normal equations (few columns); null when they are singular. */
export function leastSquares(rows: readonly number[][], y: readonly number[]): number[] | null {
  const w = rows[0]?.length ?? 0;
  const a = Array.from({ length: w }, (_, i) => [
    ...Array.from({ length: w }, (_, j) => rows.reduce((s, r) => s + r[i] * r[j], 0)),
    rows.reduce((s, r, k) => s + r[i] * y[k], 0),
  ]);
  for (let col = 0; col < w; col++) {
    let pivot = col;
    for (let i = col + 1; i < w; i++) if (Math.abs(a[i][col]) > Math.abs(a[pivot][col])) pivot = i;
    if (Math.abs(a[pivot][col]) < 1e-9) return null;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let i = 0; i < w; i++) {
      if (i === col) continue;
      const f = a[i][col] / a[col][col];
      for (let j = col; j <= w; j++) a[i][j] -= f * a[col][j];
    }
  }
  return a.map((r, i) => r[w] / r[i]);
}

/** Each item's intercept and section coefficients, from the masks it was scored under (repeats averaged). */
export function itemCoefficients(design: MaskDesign, scores: readonly MaskedScore[]): Map<string, number[] | null> {
  const byItem = new Map<string, Map<number, number[]>>();
  for (const s of scores) {
    const masks = byItem.get(s.itemId) ?? new Map<number, number[]>();
    masks.set(s.mask, [...(masks.get(s.mask) ?? []), s.value]);
    byItem.set(s.itemId, masks);
  }
  const out = new Map<string, number[] | null>();
  for (const [itemId, masks] of byItem) {
    const rows = [...masks.keys()].map((m) => [1, ...design[m].map((k) => (k ? 1 : 0))]);
    const y = [...masks.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
    out.set(itemId, rows.length > (design[0]?.length ?? 0) ? leastSquares(rows, y) : null);
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The q-quantile of sorted values, interpolated. */
function quantile(sorted: readonly number[], q: number): number {
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  return sorted[lo] + (sorted[Math.min(lo + 1, sorted.length - 1)] - sorted[lo]) * (at - lo);
}

/**
 * Each section's effect with a `level` interval from `resamples` bootstrap draws of the items.
 * Null when fewer than two items could be fitted.
 */
export function sectionEffects(
  design: MaskDesign,
  scores: readonly MaskedScore[],
  o: { seed: number; level?: number; resamples?: number },
): SectionEffects | null {
  const fitted = itemCoefficients(design, scores);
  const coef = [...fitted.values()].filter((c): c is number[] => c !== null);
  if (coef.length < 2) return null;
  const sections = design[0].length;
  const rng = new SeededRandom(o.seed);
  const draws: number[][] = Array.from({ length: sections }, () => []);
  for (let b = 0; b < (o.resamples ?? 2000); b++) {
    const sum = new Array<number>(sections).fill(0);
    for (let k = 0; k < coef.length; k++) {
      const c = coef[rng.below(coef.length)];
      for (let s = 0; s < sections; s++) sum[s] += c[s + 1];
    }
    for (let s = 0; s < sections; s++) draws[s].push(sum[s] / coef.length);
  }
  const tail = (1 - (o.level ?? 0.95)) / 2;
  const effects = draws.map((d, section) => {
    const sorted = [...d].sort((a, b) => a - b);
    return {
      section,
      effect: mean(coef.map((c) => c[section + 1])),
      low: quantile(sorted, tail),
      high: quantile(sorted, 1 - tail),
    };
  });
  return { effects, base: mean(coef.map((c) => c[0])), items: coef.length, leftOut: fitted.size - coef.length };
}
