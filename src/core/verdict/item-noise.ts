/**
 * Posterior verdicts with the noise item by item (issue #32). A target is not equally noisy on
 * every item: an agent slips more on a task of four tool calls than on one of a single call, and a
 * model hesitates on some questions only. One noise level for the whole run reads a steady item's
 * flip as a gain, or a slippery item's real gain as a fluke; here each item draws its own (miss,
 * guess) pair from the run's mix of levels — fitted on the run's repeats — and its own samples say
 * which fits it. The edit's reach (how many items it changes) stays one thing per verdict.
 */
import {
  fromLogs,
  itemChange,
  keptLevels,
  logSumExp,
  mixVerdicts,
  NOISE_GRID as GRID,
  passRate,
  verdictFrom,
  type ChangeLevel,
  type ChangePrior,
  type ItemPosterior,
  type ItemTallies,
  type NoiseLevel,
  type NoiseRates,
  type PosteriorVerdict,
} from './paired-posterior';
import type { RepeatUnit } from './noise';

/** Pseudo-units of the vague prior in the fitted mix: a short run's few repeats do not rule a level out. */
const PRIOR_UNITS = 4;
const EM_ROUNDS = 60;

/** Log of a binomial sequence's probability: `passes` of `n` answers right at rate `p`. */
const seqLog = (passes: number, n: number, p: number) => passes * Math.log(p) + (n - passes) * Math.log(1 - p);

/**
 * The run's mix of item noise levels, fitted on its repeats (EM): each unit of repeats is an item
 * known or not (even odds), a known one missing at its own rate drawn from the misses' mix, an
 * unknown one guessing at its own rate drawn from the guesses' mix. Misses are read from the items
 * a skill knows and guesses from the ones it does not — a unit that always fails says nothing of
 * how often a known item slips. Each mix is drawn toward a vague prior by a few pseudo-units.
 */
export function noiseMixture(units: readonly RepeatUnit[]): NoiseLevel[] {
  // Even over the grid, which is near-even in the log of the rate: no level favoured.
  const prior = GRID.map(() => 1 / GRID.length);
  const knownLike = units.map((u) => GRID.map((m) => Math.exp(seqLog(u.passes, u.samples, 1 - m))));
  const unknownLike = units.map((u) => GRID.map((g) => Math.exp(seqLog(u.passes, u.samples, g))));
  let wm = [...prior];
  let wg = [...prior];
  for (let round = 0; round < EM_ROUNDS && units.length; round++) {
    const nm = prior.map((p) => PRIOR_UNITS * p);
    const ng = prior.map((p) => PRIOR_UNITS * p);
    units.forEach((_, u) => {
      const k = GRID.map((_, i) => wm[i] * knownLike[u][i]);
      const g = GRID.map((_, i) => wg[i] * unknownLike[u][i]);
      const z = k.reduce((a, x) => a + x, 0) + g.reduce((a, x) => a + x, 0);
      if (!(z > 0)) return;
      k.forEach((x, i) => (nm[i] += x / z));
      g.forEach((x, i) => (ng[i] += x / z));
    });
    const sm = nm.reduce((a, x) => a + x, 0);
    const sg = ng.reduce((a, x) => a + x, 0);
    wm = nm.map((x) => x / sm);
    wg = ng.map((x) => x / sg);
  }
  const levels: NoiseLevel[] = [];
  GRID.forEach((m, i) =>
    GRID.forEach((g, j) => {
      // Known must mean "answered right more often" by a clear margin: the classes never swap.
      if (m + g < 0.6) levels.push({ miss: m, guess: g, weight: wm[i] * wg[j] });
    }),
  );
  const z = levels.reduce((a, l) => a + l.weight, 0);
  return levels.map((l) => ({ ...l, weight: l.weight / z })).filter((l) => l.weight > 1e-6);
}

/** One item's posterior with its own noise level drawn from the mix. */
function itemOverLevels(
  t: ItemTallies,
  levels: readonly NoiseLevel[],
  prior: (noise: NoiseRates) => ChangePrior,
  change: number,
): ItemPosterior {
  const each = levels.map((l) => {
    const noise = { miss: l.miss, guess: l.guess };
    const x = itemChange(t.ref, t.cand, noise, { ...prior(noise), change });
    return { x, noise, log: Math.log(l.weight) + x.logEvidence };
  });
  const logs = each.map((e) => e.log);
  const w = fromLogs(logs);
  const mix = (f: (e: (typeof each)[number]) => number) => each.reduce((a, e, k) => a + w[k] * f(e), 0);
  return {
    itemId: t.itemId,
    up: mix((e) => e.x.up),
    down: mix((e) => e.x.down),
    refKnown: mix((e) => e.x.refKnown),
    candKnown: mix((e) => e.x.candKnown),
    refRate: mix((e) => passRate(e.x.refKnown, e.noise)),
    candRate: mix((e) => passRate(e.x.candKnown, e.noise)),
    logEvidence: logSumExp(logs),
  };
}

/** Levels carrying this much of the mix are kept; the rest can never move a verdict. */
const KEPT_MASS = 0.999;

/**
 * The verdict with each item's noise its own, averaged over how many items the edit changes (each
 * reach weighed by its prior and by how well it explains the samples).
 */
export function posteriorPerItem(
  tallies: readonly ItemTallies[],
  levels: readonly NoiseLevel[],
  prior: (noise: NoiseRates) => ChangePrior,
  changes: readonly ChangeLevel[],
): PosteriorVerdict {
  return perItemPosterior(levels, prior, changes)(tallies);
}

/**
 * `posteriorPerItem` for one verdict, which weighs its items again after every wave and round
 * (issue #45): an item's posterior depends only on its two tallies, so each pair of tallies is
 * worked out once per reach and reused — by the items that share it and by every later weighing.
 * The figures are the very numbers a fresh computation gives; the weighing between two waves no
 * longer holds up the next wave's calls.
 */
export function perItemPosterior(
  levels: readonly NoiseLevel[],
  prior: (noise: NoiseRates) => ChangePrior,
  changes: readonly ChangeLevel[],
): (tallies: readonly ItemTallies[]) => PosteriorVerdict {
  const kept = keptLevels(levels, KEPT_MASS);
  const memo = new Map<string, ItemPosterior>();
  const item = (t: ItemTallies, change: number): ItemPosterior => {
    const key = `${change}|${t.ref.passes}/${t.ref.n}|${t.cand.passes}/${t.cand.n}`;
    const known = memo.get(key) ?? memo.set(key, itemOverLevels(t, kept, prior, change)).get(key)!;
    return { ...known, itemId: t.itemId };
  };
  return (tallies) =>
    mixVerdicts(
      changes.map((c) => {
        const v = verdictFrom(tallies.map((t) => item(t, c.change)));
        return { v, log: Math.log(c.weight) + v.items.reduce((a, x) => a + x.logEvidence, 0) };
      }),
    );
}
