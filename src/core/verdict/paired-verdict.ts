/**
 * Noise-aware paired verdicts (issue #19): two skills compared item by item, the item being the
 * unit. Each item may hold several samples per skill (the engine asks again where the two
 * disagree); an item's value for a skill is its settled outcome once one answer leads the other by
 * the noise policy's margin (core/verdict/noise.ts), else the mean of its samples. The verdict counts the
 * items each skill wins (McNemar's discordant pairs), gives the exact one-sided sign-test p-value
 * of the candidate winning that often by chance, and the mean per-item gain on the gate metric.
 * With one sample per item and a margin of 1 it is exactly the item-by-item comparison of before.
 */
import { isGain, isTie } from './epsilon';
import { isPass } from './credit';
import type { GateMetric } from './gate';

export interface Sample {
  hard: number;
  soft: number;
}

/** One item's samples for the reference skill (the current one) and the candidate. */
export interface ItemPair {
  itemId: string;
  ref: readonly Sample[];
  cand: readonly Sample[];
}

export interface ValueOptions {
  metric: GateMetric;
  mixedWeight?: number;
  /** Votes one outcome needs over the other to be settled (1: a single sample settles). */
  margin: number;
}

/** Passes and fails among an item's samples. */
export function votes(samples: readonly Sample[]): { pass: number; fail: number } {
  const pass = samples.filter((s) => isPass(s.hard)).length;
  return { pass, fail: samples.length - pass };
}

/** One outcome leads the other by the margin. */
export function isSettled(samples: readonly Sample[], margin: number): boolean {
  const v = votes(samples);
  return samples.length > 0 && Math.abs(v.pass - v.fail) >= margin;
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);

/** An item's hard value: the settled side's mean (1 for a settled pass of 0/1 scores), else the mean. */
export function hardValue(samples: readonly Sample[], margin: number): number {
  if (!isSettled(samples, margin)) return mean(samples.map((s) => s.hard));
  const v = votes(samples);
  const side = samples.filter((s) => isPass(s.hard) === v.pass > v.fail);
  return mean(side.map((s) => s.hard));
}

/** An item's value on the gate metric. */
export function itemValue(samples: readonly Sample[], o: ValueOptions): number {
  const w = Math.min(1, Math.max(0, o.mixedWeight ?? 0.5));
  const soft = mean(samples.map((s) => s.soft));
  if (o.metric === 'soft') return soft;
  const hard = hardValue(samples, o.margin);
  return o.metric === 'hard' ? hard : (1 - w) * hard + w * soft;
}

/** The two skills' values differ on this item: the items a re-sample may settle. */
export function disagree(p: ItemPair, o: ValueOptions): boolean {
  if (!p.ref.length || !p.cand.length) return false;
  return !isTie(itemValue(p.cand, o) - itemValue(p.ref, o));
}

/** P(X ≥ k) for X ~ Binomial(n, ½): the one-sided exact sign test (McNemar on the discordant pairs). */
export function signTestPValue(wins: number, losses: number): number {
  const n = wins + losses;
  if (n === 0 || wins <= 0) return 1;
  let term = 0.5 ** n; // C(n, 0) / 2^n
  let tail = 0;
  for (let k = 0; k <= n; k++) {
    if (k >= wins) tail += term;
    term = (term * (n - k)) / (k + 1);
  }
  return Math.min(1, tail);
}

export interface PairedVerdict {
  /** Items both skills were scored on (errored rows are left out). */
  n: number;
  /** Items the candidate wins (better value) and loses, after settling. */
  improved: string[];
  regressed: string[];
  /** Mean per-item gain of the candidate on the gate metric. */
  gain: number;
  refScore: number;
  candScore: number;
  /** One-sided exact sign test: the chance of the candidate winning this many of the discordant items if neither skill were better. */
  pValue: number;
  /** Items with more than one sample on either side. */
  resampled: number;
  /** Items left unsettled (a side still split when its samples ran out). */
  unsettled: number;
  margin: number;
  /**
   * Posterior verdicts (core/paired-posterior.ts): the chance the candidate knows more of the items
   * and fewer, the expected items gained, each side's expected share known and pass rate. Improved and
   * regressed are then the items more likely gained or lost than not.
   */
  posterior?: PosteriorFigures;
}

export interface PosteriorFigures {
  pBetter: number;
  pWorse: number;
  gain: number;
  refKnown: number;
  candKnown: number;
  /** Each side's expected pass rate, the noise kept: the score a run shows. */
  refRate: number;
  candRate: number;
}

/** The verdict on every item both skills were scored on. */
export function pairedVerdict(pairs: readonly ItemPair[], o: ValueOptions): PairedVerdict {
  const both = pairs.filter((p) => p.ref.length && p.cand.length);
  const improved: string[] = [];
  const regressed: string[] = [];
  let refSum = 0;
  let candSum = 0;
  let resampled = 0;
  let unsettled = 0;
  for (const p of both) {
    const a = itemValue(p.ref, o);
    const b = itemValue(p.cand, o);
    refSum += a;
    candSum += b;
    if (isGain(b - a)) improved.push(p.itemId);
    if (isGain(a - b)) regressed.push(p.itemId);
    if (p.ref.length > 1 || p.cand.length > 1) resampled++;
    // A side asked again and still split (a side asked once was never in doubt).
    const split = (xs: readonly Sample[]) => xs.length > 1 && !isSettled(xs, o.margin);
    if (o.metric !== 'soft' && (split(p.ref) || split(p.cand))) unsettled++;
  }
  const n = both.length;
  return {
    n,
    improved,
    regressed,
    gain: n ? (candSum - refSum) / n : 0,
    refScore: n ? refSum / n : 0,
    candScore: n ? candSum / n : 0,
    pValue: signTestPValue(improved.length, regressed.length),
    resampled,
    unsettled,
    margin: o.margin,
  };
}

/**
 * The most the candidate's summed gain can still grow by over items not scored yet, given the
 * reference's values there: an item the reference already passes cannot be won (a disagreement
 * there can only settle against the candidate or to a tie).
 */
export function maxGainLeft(refValues: readonly number[]): number {
  return refValues.reduce((a, v) => a + (1 - v), 0);
}
