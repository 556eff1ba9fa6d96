/**
 * Random masks for section credit (issue #43 item 4; Assay's random masking): which sections each
 * evaluation of the skill keeps. Half the masks are drawn at random (seeded), each section kept
 * with p = 1/2; the other half are their complements (a fold-over design). So each section is kept
 * in exactly half the masks, and — the reason for the fold-over — what two sections do together
 * (the harmful rule spoils answers only the helpful one made right) cannot leak into any section's
 * effect: each effect is the section's average over the others' mix. A draw whose masks cannot tell
 * two sections apart is drawn again. The plan fits the masks and the validation items into the
 * calls a person allows.
 */
import { SeededRandom, shuffleInPlace } from '../basics/random';

/** `masks[m][s]`: does mask m keep section s. */
export type MaskDesign = boolean[][];

/**
 * Fewest masks: fold-over pairs whose drawn halves number one more than the sections (the drawn
 * half alone must tell every section apart: a complement adds no new direction), never under six.
 */
export const minMasks = (sections: number): number => Math.max(2 * (sections + 1), 6);

export interface CreditPlan {
  masks: number;
  /** How many of the validation items each mask is scored on (the first ones). */
  items: number;
  /** Rollouts the plan makes: masks × items (an agent's rollout may take several calls). */
  rollouts: number;
}

/**
 * As many masks as the budget allows on every validation item; when that is fewer than the
 * fewest masks, the fewest masks on as many items as the budget then allows. Null when even two
 * items cannot be scored under the fewest masks.
 */
export function creditPlan(sections: number, items: number, budget: number): CreditPlan | null {
  const least = minMasks(sections);
  const masks = 2 * Math.floor(budget / Math.max(1, items) / 2);
  if (masks >= least && items >= 2) return { masks, items, rollouts: masks * items };
  const fewer = Math.min(items, Math.floor(budget / least));
  if (fewer < 2) return null;
  return { masks: least, items: fewer, rollouts: least * fewer };
}

/** The budget the fewest masks need on two items: what a refusal says to raise it to. */
export const leastBudget = (sections: number): number => 2 * minMasks(sections);

/** A fold-over random design of `masks` (even) masks over `sections` sections, seeded; full rank with the intercept. */
export function maskDesign(sections: number, masks: number, seed: number): MaskDesign {
  const rng = new SeededRandom(seed);
  const half = Math.floor(masks / 2);
  let design: MaskDesign = [];
  for (let attempt = 0; attempt < 200; attempt++) {
    const drawn = Array.from({ length: half }, () => Array.from({ length: sections }, () => rng.below(2) === 1));
    design = [...drawn, ...drawn.map((row) => row.map((k) => !k))];
    // Pair order would put every complement last: shuffled, so a budget cut short keeps a mix.
    const order = shuffleInPlace(
      Array.from({ length: half }, (_, i) => i),
      rng,
    );
    design = order.flatMap((i) => [design[i], design[i + half]]);
    if (fullRank(design)) return design;
  }
  return design;
}

/** Whether [1, mask] rows determine an intercept and every section's coefficient. */
export function fullRank(design: MaskDesign): boolean {
  const rows = design.map((m) => [1, ...m.map((k) => (k ? 1 : 0))]);
  const width = rows[0]?.length ?? 0;
  if (rows.length < width) return false;
  let rank = 0;
  for (let col = 0; col < width; col++) {
    const pivot = rows.findIndex((r, i) => i >= rank && Math.abs(r[col]) > 1e-9);
    if (pivot < 0) return false;
    [rows[rank], rows[pivot]] = [rows[pivot], rows[rank]];
    for (let i = 0; i < rows.length; i++) {
      if (i === rank) continue;
      const f = rows[i][col] / rows[rank][col];
      for (let j = col; j < width; j++) rows[i][j] -= f * rows[rank][j];
    }
    rank++;
  }
  return true;
}
