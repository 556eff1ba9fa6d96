/**
 * An honest lift (issue #19): how much the best skill beats the starting one on the test split,
 * with an interval that says how sure that is. Two things make a measured lift wrong:
 * - which test items happened to be drawn (a paired bootstrap over items answers that);
 * - the target's own noise: a stochastic target misses answers it knows and guesses some it does
 *   not, which pulls a measured lift toward zero and blurs it.
 * The noise part is a latent-class model: each (skill, item) is either known or not; a known
 * item is answered right except for a miss rate, an unknown one only by a guess rate; each skill
 * knows its own share of items. Miss and guess rates are fitted (EM) on every test sample of
 * every skill scored, with the run's own flip tally as a prior — repeated samples per test item
 * (a knob) identify them best. Each item's chance of being known follows, and the interval comes
 * from resampling items and drawing their states. With a deterministic target the model reduces
 * to the plain paired bootstrap. Seeded: the same run gives the same interval.
 */
import { SeededRandom } from '../basics/random';

/** Pass/fail samples of one skill on one item. */
export interface Unit {
  /** Which skill (none, initial, best, final): each knows its own share of items. */
  group: string;
  passes: number;
  n: number;
}

export interface LatentFit {
  /** Share of known items answered wrong. */
  miss: number;
  /** Share of unknown items answered right. */
  guess: number;
  /** Share of items each skill knows. */
  known: Record<string, number>;
}

/** Pseudo-samples of prior evidence about the flip rate: what the run saw in its repeats. */
export interface FlipPrior {
  samples: number;
  minority: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const FLOOR = 1e-4;

/** P(known | samples) for a skill that knows share `pi` of its items. */
export function posteriorKnown(fit: Pick<LatentFit, 'miss' | 'guess'>, pi: number, passes: number, n: number): number {
  const m = clamp(fit.miss, FLOOR, 0.49);
  const g = clamp(fit.guess, FLOOR, 0.49);
  const fails = n - passes;
  // In logs: a unit of many samples would underflow.
  const known = Math.log(clamp(pi, FLOOR, 1 - FLOOR)) + passes * Math.log(1 - m) + fails * Math.log(m);
  const unknown = Math.log(clamp(1 - pi, FLOOR, 1 - FLOOR)) + passes * Math.log(g) + fails * Math.log(1 - g);
  return 1 / (1 + Math.exp(unknown - known));
}

/**
 * Fit miss and guess rates and each skill's known share by EM. The prior (the run's flip tally,
 * capped at `priorWeight` pseudo-samples) keeps the rates near what the run saw when the test
 * samples alone cannot tell them apart (one sample per item).
 */
export function fitLatent(units: readonly Unit[], prior: FlipPrior, priorWeight = 40): LatentFit {
  const scale = prior.samples > priorWeight ? priorWeight / prior.samples : 1;
  const a = prior.minority * scale + 0.5;
  const b = (prior.samples - prior.minority) * scale + 0.5;
  let miss = clamp(a / (a + b), 0.001, 0.3);
  let guess = miss;
  const groups = [...new Set(units.map((u) => u.group))];
  const known: Record<string, number> = {};
  for (const grp of groups) {
    const us = units.filter((u) => u.group === grp);
    const rate =
      us.reduce((s, u) => s + u.passes, 0) /
      Math.max(
        1,
        us.reduce((s, u) => s + u.n, 0),
      );
    known[grp] = clamp((rate - guess) / Math.max(0.05, 1 - miss - guess), 0.01, 0.99);
  }
  for (let iter = 0; iter < 200; iter++) {
    let mNum = a;
    let mDen = a + b;
    let gNum = a;
    let gDen = a + b;
    const sums: Record<string, [number, number]> = {};
    for (const u of units) {
      const w = posteriorKnown({ miss, guess }, known[u.group], u.passes, u.n);
      mNum += w * (u.n - u.passes);
      mDen += w * u.n;
      gNum += (1 - w) * u.passes;
      gDen += (1 - w) * u.n;
      const s = (sums[u.group] ??= [0, 0]);
      s[0] += w;
      s[1] += 1;
    }
    const next = { miss: clamp(mNum / mDen, 0.0005, 0.45), guess: clamp(gNum / gDen, 0.0005, 0.45) };
    // Known must mean "answered right more often": the two classes never swap.
    if (next.miss + next.guess >= 0.95) break;
    const moved = Math.abs(next.miss - miss) + Math.abs(next.guess - guess);
    miss = next.miss;
    guess = next.guess;
    for (const [grp, [w, n]] of Object.entries(sums)) known[grp] = clamp(w / n, 0.005, 0.995);
    if (moved < 1e-7) break;
  }
  return { miss, guess, known };
}

/** One test item's samples for the two skills compared. */
export interface PairedItemSamples {
  best: { passes: number; n: number };
  base: { passes: number; n: number };
}

export interface LiftInterval {
  /** Mean pass rate difference of the samples as drawn (first samples and repeats alike). */
  measured: number;
  /** Expected difference in items known: the lift with the target's noise taken out. */
  estimate: number;
  /** The central interval at `level`, over test items and the target's noise. */
  interval: [number, number];
  level: number;
  n: number;
  /** True when the interval holds zero: the lift cannot be told from noise. */
  uncertain: boolean;
}

/** Lift of `best` over `base` item by item, with its bootstrap interval under the latent model. */
export function liftInterval(
  items: readonly PairedItemSamples[],
  fit: LatentFit,
  groups: { best: string; base: string },
  o: { seed: number; replicates?: number; level?: number } = { seed: 0 },
): LiftInterval {
  const n = items.length;
  const level = o.level ?? 0.95;
  if (n === 0) return { measured: 0, estimate: 0, interval: [0, 0], level, n: 0, uncertain: true };
  const rate = (x: { passes: number; n: number }) => (x.n ? x.passes / x.n : 0);
  const measured = items.reduce((s, it) => s + rate(it.best) - rate(it.base), 0) / n;
  const wBest = items.map((it) => posteriorKnown(fit, fit.known[groups.best] ?? 0.5, it.best.passes, it.best.n));
  const wBase = items.map((it) => posteriorKnown(fit, fit.known[groups.base] ?? 0.5, it.base.passes, it.base.n));
  const estimate = wBest.reduce((s, w, i) => s + w - wBase[i], 0) / n;
  const rng = new SeededRandom(o.seed);
  const replicates = o.replicates ?? 2000;
  const draws: number[] = [];
  for (let r = 0; r < replicates; r++) {
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const i = rng.below(n);
      sum += (rng.nextFloat() < wBest[i] ? 1 : 0) - (rng.nextFloat() < wBase[i] ? 1 : 0);
    }
    draws.push(sum / n);
  }
  draws.sort((x, y) => x - y);
  const at = (q: number) => draws[Math.min(replicates - 1, Math.max(0, Math.floor(q * replicates)))];
  const interval: [number, number] = [at((1 - level) / 2), at(1 - (1 - level) / 2)];
  return { measured, estimate, interval, level, n, uncertain: interval[0] <= 0 && interval[1] >= 0 };
}

/** Fitted miss and guess rates under this total are a deterministic target's: its lift is as measured. */
const NOISE_SHOWN = 0.02;

/** Whether a lift's target is noisy enough that its estimate, not its measurement, is the figure shown. */
export function liftIsNoisy(noise: { miss: number; guess: number }): boolean {
  return noise.miss + noise.guess > NOISE_SHOWN;
}

/**
 * The lift a person is shown (the lift card, the HTML report, the benchmark's "reported" lift):
 * the estimate with the target's noise taken out when the target is noisy, else as measured.
 */
export function shownLift(
  l: Pick<LiftInterval, 'estimate' | 'measured'> & { noise: { miss: number; guess: number } },
): number {
  return liftIsNoisy(l.noise) ? l.estimate : l.measured;
}
