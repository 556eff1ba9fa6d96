/**
 * pass^k (issue #43; τ-bench): the chance that k tries of an item all succeed, averaged over items —
 * whether a skill works every time, not on average. Estimated without bias from n ≥ k tries per
 * item with c passes as C(c,k)/C(n,k) (drawing k of the n tries without replacement), so more tries
 * than k tighten the figure instead of shifting it. Errored tries are never counted as tries.
 */

/** One item's tries that were scored (errored tries left out) and how many of them passed. */
export interface ItemTries {
  n: number;
  passes: number;
}

/** pass^1 and pass^k side by side, with how often an item's tries disagreed. */
export interface PassK {
  k: number;
  /** Mean per-item pass rate over every scored try (the unbiased pass^1). */
  passAt1: number;
  /** C(c,k)/C(n,k) averaged over the items with at least k scored tries. */
  passAtK: number;
  /** Items whose scored tries disagree, over the items with at least two scored tries. */
  flipRate: number;
  /** Items pass^k is averaged over (at least k scored tries). */
  items: number;
  /** Items left out of pass^k because errors left them fewer than k scored tries. */
  short: number;
}

/** C(c,k)/C(n,k) for one item: the chance that k of its n tries, drawn without replacement, all passed. */
export function itemPassAtK(t: ItemTries, k: number): number {
  if (!Number.isInteger(k) || k < 1 || t.n < k) throw new RangeError(`pass^${k} needs at least ${k} tries, not ${t.n}`);
  // The product of (c−i)/(n−i) over i < k: the ratio of the two binomials without their large factorials.
  let p = 1;
  for (let i = 0; i < k && p > 0; i++) p *= Math.max(0, t.passes - i) / (t.n - i);
  return p;
}

/** pass^k averaged over the items with at least k tries; null when there is none. */
export function passAtK(items: readonly ItemTries[], k: number): number | null {
  const counted = items.filter((t) => t.n >= k);
  return counted.length ? counted.reduce((s, t) => s + itemPassAtK(t, k), 0) / counted.length : null;
}

/** Share of the items with at least two tries whose tries disagree; null when there is none. */
export function itemFlipRate(items: readonly ItemTries[]): number | null {
  const repeated = items.filter((t) => t.n >= 2);
  return repeated.length ? repeated.filter((t) => t.passes > 0 && t.passes < t.n).length / repeated.length : null;
}

/** pass^1, pass^k and the flip rate of a skill's tries; null when no item has k scored tries. */
export function passKOf(items: readonly ItemTries[], k: number): PassK | null {
  const atK = passAtK(items, k);
  if (atK === null) return null;
  const counted = items.filter((t) => t.n >= k);
  return {
    k,
    passAt1: passAtK(counted, 1)!,
    passAtK: atK,
    flipRate: itemFlipRate(counted) ?? 0,
    items: counted.length,
    short: items.filter((t) => t.n > 0 && t.n < k).length,
  };
}

/**
 * pass^k of a skill whose items were each asked k times alike (a learning curve's point): `asked`
 * holds each item's answers in the order they were asked, null for an errored try; the first k
 * count. Null when an item was asked fewer than k times: fewer tries give no pass^k (never a guess),
 * and more for some items only (a verdict settling its doubts) would tilt it.
 */
export function passKOfAsked(asked: readonly (readonly (boolean | null)[])[], k: number): PassK | null {
  if (k < 2 || !asked.length || asked.some((a) => a.length < k)) return null;
  const tries = asked.map((a) => {
    const scored = a.slice(0, k).filter((x): x is boolean => x !== null);
    return { n: scored.length, passes: scored.filter(Boolean).length };
  });
  return passKOf(tries, k);
}
