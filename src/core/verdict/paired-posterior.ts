/**
 * How sure a verdict is that one skill beats another (issue #32), item by item under the latent
 * model of core/lift.ts: on each item a skill either knows the answer (the target then misses it
 * now and then) or does not (and guesses it now and then). The candidate is the reference with a
 * few items changed — on each item it knows what the reference knows except with a small prior
 * chance, either way. From every sample each side holds (first answers, repeats, none at all for
 * an item not scored yet) comes each item's chance of having been gained, lost or kept, and from
 * their sum the chance that the candidate knows more validation items than the reference: the
 * gate accepts only when that chance is high. The posterior does not depend on when sampling
 * stopped or which samples were drawn for which verdict, so a sequential verdict may stop as soon
 * as it is sure, and samples drawn for one verdict count in the next.
 */

/** How a known and an unknown item are answered: a known one is missed, an unknown one guessed. */
export interface NoiseRates {
  miss: number;
  guess: number;
}

/** Passes among the samples of one skill on one item (n = 0: not scored). */
export interface Tally {
  passes: number;
  n: number;
}

export interface ChangePrior {
  /** Share of items the reference knows (before any sample). */
  known: number;
  /** Chance that the candidate's state on an item differs from the reference's (gained or lost alike). */
  change: number;
}

/** An item's chance of having been gained and lost. */
export type ItemShift = Pick<ItemChange, 'up' | 'down'>;

/** One item's posterior: gained (the candidate knows it, the reference not), lost, or kept. */
export interface ItemChange {
  up: number;
  down: number;
  /** The chance each side knows the item. */
  refKnown: number;
  candKnown: number;
  /** Log of the item's samples' likelihood under the model (what weighs one noise level against another). */
  logEvidence: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** Log-likelihood of a tally given the item is known (true) or not. */
function logLikelihood(t: Tally, known: boolean, r: NoiseRates): number {
  const m = clamp(r.miss, 1e-6, 0.49);
  const g = clamp(r.guess, 1e-6, 0.49);
  const fails = t.n - t.passes;
  return known ? t.passes * Math.log(1 - m) + fails * Math.log(m) : t.passes * Math.log(g) + fails * Math.log(1 - g);
}

/** The posterior of one item from both sides' samples. */
export function itemChange(ref: Tally, cand: Tally, noise: NoiseRates, prior: ChangePrior): ItemChange {
  const pi = clamp(prior.known, 0.01, 0.99);
  const half = clamp(prior.change, 1e-9, 0.5) / 2;
  // No drift: before any sample an item is as likely gained as lost (each with half the change
  // prior), whatever share the reference knows — the prior alone never favours either side.
  const up = Math.min(0.5, half / (1 - pi));
  const down = Math.min(0.5, half / pi);
  const joint = (a: boolean, b: boolean) =>
    Math.log(a ? pi : 1 - pi) +
    Math.log(a ? (b ? 1 - down : down) : b ? up : 1 - up) +
    logLikelihood(ref, a, noise) +
    logLikelihood(cand, b, noise);
  const l = [joint(false, false), joint(false, true), joint(true, false), joint(true, true)];
  const top = Math.max(...l);
  const w = l.map((x) => Math.exp(x - top));
  const z = w[0] + w[1] + w[2] + w[3];
  const [, p01, p10, p11] = w.map((x) => x / z);
  // One side not yet seen on an item: as likely gained as lost. The prior's evenness holds over all
  // items, not on one the reference fails, where an unseen change can only be a gain — and a batch
  // the reference mostly fails would read as won before a single answer (a train screen let a
  // candidate that lost every item through without scoring one).
  if (cand.n === 0 || ref.n === 0) {
    const shift = (p01 + p10) / 2;
    const known = cand.n === 0 ? p10 + p11 : p01 + p11;
    return { up: shift, down: shift, refKnown: known, candKnown: known, logEvidence: top + Math.log(z) };
  }
  return { up: p01, down: p10, refKnown: p10 + p11, candKnown: p01 + p11, logEvidence: top + Math.log(z) };
}

/** Mass below this is dropped from a distribution (it can never move a verdict). */
const NEGLIGIBLE = 1e-15;

/** The distribution of the summed change (gained − lost items): `pmf[k]` is P(sum = k − offset). */
export interface ChangeSum {
  pmf: number[];
  offset: number;
}

/** Convolve the items' gained/lost/kept chances into the distribution of their sum. */
export function changeSum(items: readonly Pick<ItemChange, 'up' | 'down'>[]): ChangeSum {
  let pmf = [1];
  let offset = 0;
  for (const it of items) {
    const keep = Math.max(0, 1 - it.up - it.down);
    const next = new Array<number>(pmf.length + 2).fill(0);
    for (let k = 0; k < pmf.length; k++) {
      const p = pmf[k];
      if (p === 0) continue;
      next[k] += p * it.down;
      next[k + 1] += p * keep;
      next[k + 2] += p * it.up;
    }
    offset += 1;
    // Trim negligible tails so a long list of certain items stays cheap.
    let lo = 0;
    let hi = next.length - 1;
    while (lo < hi && next[lo] < NEGLIGIBLE) lo++;
    while (hi > lo && next[hi] < NEGLIGIBLE) hi--;
    pmf = next.slice(lo, hi + 1);
    offset -= lo;
  }
  return { pmf, offset };
}

/** P(sum ≥ k). */
export function atLeast(s: ChangeSum, k: number): number {
  let p = 0;
  for (let i = 0; i < s.pmf.length; i++) if (i - s.offset >= k) p += s.pmf[i];
  return Math.min(1, p);
}

/** P(sum ≤ k). */
export function atMost(s: ChangeSum, k: number): number {
  let p = 0;
  for (let i = 0; i < s.pmf.length; i++) if (i - s.offset <= k) p += s.pmf[i];
  return Math.min(1, p);
}

/** One item's samples for both sides; `inherit` stands in for a candidate item not scored yet. */
export interface ItemTallies {
  itemId: string;
  ref: Tally;
  cand: Tally;
}

/** The chance, before any sample, that an edit changes an item's state (each way): an edit changes few items. */
export const CHANGE_PRIOR = 0.1;

/** The noise a verdict assumes: the run's flip rate, for misses and guesses alike. */
export function noiseOf(flipRate: number): NoiseRates {
  const e = clamp(flipRate, 1e-4, 0.45);
  return { miss: e, guess: e };
}

/** Share of items the reference knows, from its first samples (pass rate with the noise taken out). */
export function knownPrior(firstPasses: number, n: number, noise: NoiseRates): number {
  if (n <= 0) return 0.5;
  const rate = firstPasses / n;
  return clamp((rate - noise.guess) / Math.max(0.05, 1 - noise.miss - noise.guess), 0.02, 0.98);
}

export interface PosteriorVerdict {
  /** Items in the verdict (scored or not: an unscored candidate item weighs by the prior alone). */
  n: number;
  /** The chance the candidate knows more of these items than the reference, and fewer. */
  pBetter: number;
  pWorse: number;
  /** Expected items gained minus lost. */
  gain: number;
  /** Items more likely gained than not, and more likely lost. */
  improved: string[];
  regressed: string[];
  /** Expected share of the items each side knows: scores with the target's noise taken out. */
  refKnown: number;
  candKnown: number;
  /**
   * Expected pass rate of each side, the target's noise kept (the scale of a measured score): what
   * a run shows as a skill's score. The candidate's is drawn toward the reference where its own
   * samples say little — the selection it survived is in its prior, not read as skill.
   */
  refRate: number;
  candRate: number;
  items: (ItemChange & { itemId: string })[];
}

/** One noise level a verdict weighs — a miss and a guess rate — with its prior weight (from the run's repeats). */
export interface NoiseLevel {
  miss: number;
  guess: number;
  weight: number;
}

/** Flip rates a verdict averages over: a grid from a near-deterministic target to a coin. */
export const NOISE_GRID = [0.002, 0.01, 0.02, 0.035, 0.05, 0.07, 0.1, 0.14, 0.2, 0.28, 0.38];

/** log Σ exp(x), the largest taken out first so none underflows. */
export function logSumExp(logs: readonly number[]): number {
  const top = Math.max(...logs);
  return top + Math.log(logs.reduce((a, x) => a + Math.exp(x - top), 0));
}

/** Weights from log-weights, summing to one. */
export function fromLogs(logs: readonly number[]): number[] {
  const z = logSumExp(logs);
  return logs.map((x) => Math.exp(x - z));
}

/** A side's expected pass rate when it knows the item with chance `known`: its misses and guesses kept. */
export const passRate = (known: number, noise: NoiseRates) => known * (1 - noise.miss) + (1 - known) * noise.guess;

/** A grid point stands for the stretch of rates around it: its prior weight is its width. */
const width = (i: number) => (NOISE_GRID[Math.min(i + 1, NOISE_GRID.length - 1)] - NOISE_GRID[Math.max(i - 1, 0)]) / 2;

const normalised = (levels: NoiseLevel[], logs: number[]): NoiseLevel[] => {
  const w = fromLogs(logs);
  return levels.map((l, i) => ({ ...l, weight: w[i] })).filter((x) => x.weight > 1e-6);
};

/**
 * The noise levels a verdict averages over (issue #32), one flip rate for misses and guesses alike,
 * weighed by how likely the run's flip tally makes each (Jeffreys: Beta(minority + ½, agreeing + ½)).
 * A point estimate from a short, lucky tally takes a noisy target for a steady one and reads its
 * flips as gains; the levels it cannot rule out keep their weight, and each verdict's own samples
 * weigh them again. What a run falls back on when its repeats were kept without their answers.
 */
export function noiseLevels(t: { minority: number; samples: number }): NoiseLevel[] {
  const levels = NOISE_GRID.map((rate) => ({ miss: rate, guess: rate, weight: 0 }));
  const logs = NOISE_GRID.map(
    (e, i) =>
      (t.minority + 0.5 - 1) * Math.log(e) + (t.samples - t.minority + 0.5 - 1) * Math.log(1 - e) + Math.log(width(i)),
  );
  return normalised(levels, logs);
}

/** A share of items an edit may change, with its prior weight. */
export interface ChangeLevel {
  change: number;
  weight: number;
}

/**
 * How many items an edit changes, before any sample: mostly few, sometimes many (a candidate that
 * replaces a broad rule moves a third of the items at once). One fixed share drew every gain of a
 * sweeping candidate toward "noise" — a skill that fixed 15 of 24 items showed 0.73 — while a
 * neutral rewording's flips, both ways, are still best read as noise at any of these shares.
 */
export const CHANGE_LEVELS: readonly ChangeLevel[] = [
  { change: 0.03, weight: 0.3 },
  { change: 0.1, weight: 0.4 },
  { change: 0.25, weight: 0.2 },
  { change: 0.5, weight: 0.1 },
];

/**
 * The chance, before any sample, that a candidate changes no item at all: a rewording, or a rule for
 * a case these items do not hold (issue #40). Without it every candidate is read as changing a few
 * items, and on a noisy target a neutral one's flips summed to P(better) ≥ 0.7: 9 of 66 generated
 * A/A runs accepted a rewording (2 of 66 with it), while settled gains rule "nothing changed" out
 * at once. An accept's verdicts weigh it (the gate, a tie's train evidence), not a screen's.
 */
export const NEUTRAL_PRIOR = 0.4;

/** The change levels with a share `neutral` of the prior on "no item changed" (the rest scaled down). */
export function withNeutral(levels: readonly ChangeLevel[], neutral = NEUTRAL_PRIOR): ChangeLevel[] {
  return [{ change: 0, weight: neutral }, ...levels.map((l) => ({ ...l, weight: l.weight * (1 - neutral) }))];
}

/**
 * The verdict averaged over noise levels (and, given `changes`, over how many items the edit
 * changes): each setting's verdict, weighed by its prior weight and by how well it explains the
 * samples at hand (repeats that disagree make a steady target unlikely; gains all one way, a
 * sweeping edit).
 */
export function posteriorOverNoise(
  tallies: readonly ItemTallies[],
  levels: readonly NoiseLevel[],
  prior: (noise: NoiseRates) => ChangePrior,
  changes: readonly ChangeLevel[] | null = null,
): PosteriorVerdict {
  const rates = (l: NoiseLevel): NoiseRates => ({ miss: l.miss, guess: l.guess });
  if (levels.length === 1 && !changes) return posteriorVerdict(tallies, rates(levels[0]), prior(rates(levels[0])));
  const settings = keptLevels(levels).flatMap((l) =>
    (changes ?? [{ change: prior(rates(l)).change, weight: 1 }]).map((c) => ({
      noise: rates(l),
      change: c.change,
      weight: l.weight * c.weight,
    })),
  );
  return mixVerdicts(
    settings.map((x) => {
      const v = posteriorVerdict(tallies, x.noise, { ...prior(x.noise), change: x.change });
      return { v, log: Math.log(x.weight) + v.items.reduce((a, it) => a + it.logEvidence, 0) };
    }),
  );
}

/** Levels carrying this much of the weight are kept; the rest can never move a verdict. */
const KEPT_MASS = 0.9999;

/** The heaviest levels that together carry `mass` of the weight. */
export function keptLevels<L extends { weight: number }>(levels: readonly L[], mass = KEPT_MASS): L[] {
  let sum = 0;
  return [...levels].sort((a, b) => b.weight - a.weight).filter((l) => (sum += l.weight) - l.weight < mass);
}

/** Verdicts under several settings, each weighed by its prior and evidence (`log`), averaged into one. */
export function mixVerdicts(each: readonly { v: PosteriorVerdict; log: number }[]): PosteriorVerdict {
  const w = fromLogs(each.map((x) => x.log));
  const mix = (f: (v: PosteriorVerdict) => number) => each.reduce((a, x, i) => a + w[i] * f(x.v), 0);
  const items = each[0].v.items.map((it, k) => ({
    itemId: it.itemId,
    up: mix((v) => v.items[k].up),
    down: mix((v) => v.items[k].down),
    refKnown: mix((v) => v.items[k].refKnown),
    candKnown: mix((v) => v.items[k].candKnown),
    logEvidence: mix((v) => v.items[k].logEvidence),
  }));
  return {
    n: items.length,
    pBetter: mix((v) => v.pBetter),
    pWorse: mix((v) => v.pWorse),
    gain: mix((v) => v.gain),
    improved: items.filter((x) => x.up >= 0.5).map((x) => x.itemId),
    regressed: items.filter((x) => x.down >= 0.5).map((x) => x.itemId),
    refKnown: mix((v) => v.refKnown),
    candKnown: mix((v) => v.candKnown),
    refRate: mix((v) => v.refRate),
    candRate: mix((v) => v.candRate),
    items,
  };
}

/** P(the candidate knows more of all these items than the reference): evidence pooled across verdicts (a train check and a gate). */
export function pooledBetter(items: readonly ItemShift[]): number {
  return atLeast(changeSum(items), 1);
}

export function posteriorVerdict(
  tallies: readonly ItemTallies[],
  noise: NoiseRates,
  prior: ChangePrior,
): PosteriorVerdict {
  return verdictFrom(
    tallies.map((t) => {
      const x = itemChange(t.ref, t.cand, noise, prior);
      return { itemId: t.itemId, ...x, refRate: passRate(x.refKnown, noise), candRate: passRate(x.candKnown, noise) };
    }),
  );
}

/** One item's posterior with each side's expected pass rate (the noise kept). */
export type ItemPosterior = ItemChange & { itemId: string; refRate: number; candRate: number };

/** The verdict on items whose posteriors are known: their sum's chances, and each side's means. */
export function verdictFrom(items: readonly ItemPosterior[]): PosteriorVerdict {
  const sum = changeSum(items);
  const n = items.length;
  const mean = (f: (x: ItemPosterior) => number) => (n ? items.reduce((a, x) => a + f(x), 0) / n : 0);
  return {
    n,
    pBetter: atLeast(sum, 1),
    pWorse: atMost(sum, -1),
    gain: items.reduce((a, x) => a + x.up - x.down, 0),
    improved: items.filter((x) => x.up >= 0.5).map((x) => x.itemId),
    regressed: items.filter((x) => x.down >= 0.5).map((x) => x.itemId),
    refKnown: mean((x) => x.refKnown),
    candKnown: mean((x) => x.candKnown),
    refRate: mean((x) => x.refRate),
    candRate: mean((x) => x.candRate),
    items: [...items],
  };
}
