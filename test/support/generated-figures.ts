/**
 * A generated set's figures (issue #40), pure: held-out mean, 10th percentile and minimum over the
 * worlds with something to learn, the runs stuck at their start, training target calls per run and
 * to reach 0.95, and over the A/A worlds the runs that accepted a step and what they showed.
 */
import type { SeedResult } from './bench-quality';
import type { GeneratedWorld } from './generated-world';

export interface WorldResult {
  world: GeneratedWorld;
  result: SeedResult;
}

/** The nearest-rank percentile of a list (p in (0, 1]). */
export function percentile(xs: readonly number[], p: number): number {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/** A run that never left its start: held-out no better than the start's, where a better skill is reachable. */
export const stuck = (r: WorldResult) =>
  !r.world.aa && r.result.initialHeldOut < 1 && r.result.heldOut <= r.result.initialHeldOut + 1e-9;

const round = (x: number) => Number(x.toFixed(4));

/** A set's figures: learning over the worlds with something to learn, false accepts over the A/A ones. */
export function setFigures(results: readonly WorldResult[]) {
  const learn = results.filter((r) => !r.world.aa);
  const aa = results.filter((r) => r.world.aa);
  const held = learn.map((r) => r.result.heldOut);
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
  const withInterval = aa.filter((r) => r.result.liftInterval);
  return {
    worlds: results.length,
    learn: {
      worlds: learn.length,
      meanHeldOut: round(mean(held)),
      p10HeldOut: round(percentile(held, 0.1)),
      minHeldOut: round(Math.min(...held)),
      meanStart: round(mean(learn.map((r) => r.result.initialHeldOut))),
      stuck: learn.filter(stuck).length,
      stuckRate: round(learn.filter(stuck).length / Math.max(1, learn.length)),
      meanTrainingTargetCalls: round(mean(learn.map((r) => r.result.trainingTargetCalls))),
      reached95: learn.filter((r) => r.result.callsTo95 !== null).length,
      // A world that never reached 0.95 counts its whole run.
      meanCallsTo95: round(mean(learn.map((r) => r.result.callsTo95 ?? r.result.trainingTargetCalls))),
      // Accepted steps that made held-out worse, and the runs with one (issue #43).
      harmfulAccepts: learn.reduce((n, r) => n + (r.result.harmfulAccepts ?? 0), 0),
      runsWithHarmfulAccept: learn.filter((r) => (r.result.harmfulAccepts ?? 0) > 0).length,
      riderCalls: round(
        mean(learn.map((r) => (r.result.counters?.riderProbeCalls ?? 0) + (r.result.counters?.riderCheckCalls ?? 0))),
      ),
    },
    aa: {
      worlds: aa.length,
      runsAccepting: aa.filter((r) => r.result.accepts > 0).length,
      acceptingRate: round(aa.filter((r) => r.result.accepts > 0).length / Math.max(1, aa.length)),
      runsMovingBest: aa.filter((r) => r.result.bestMoved).length,
      meanShownLift: round(mean(aa.map((r) => r.result.reportedLift ?? 0))),
      intervalCoversZero: withInterval.length
        ? round(
            withInterval.filter((r) => r.result.liftInterval![0] <= 1e-9 && r.result.liftInterval![1] >= -1e-9).length /
              withInterval.length,
          )
        : null,
      meanTrainingTargetCalls: round(mean(aa.map((r) => r.result.trainingTargetCalls))),
    },
  };
}

/** Held-out mean and worst by a world's features: where a set's shortfall comes from. */
export function byFeature(
  results: readonly WorldResult[],
): Record<string, { n: number; mean: number; min: number; stuck: number }> {
  const groups: Record<string, WorldResult[]> = {};
  const add = (k: string, r: WorldResult) => (groups[k] ??= []).push(r);
  for (const r of results.filter((x) => !x.world.aa)) {
    const w = r.world;
    const noise = w.targetNoise ? w.targetNoise.miss + w.targetNoise.guess : 0;
    add(
      noise === 0 ? 'deterministic' : noise < 0.15 ? 'noise < 0.15' : noise < 0.25 ? 'noise 0.15–0.25' : 'noise ≥ 0.25',
      r,
    );
    add(r.result.initialHeldOut < 0.2 ? 'start < 0.2' : 'start ≥ 0.2', r);
    if (w.start.broad !== null) add('broad start', r);
    if (w.start.harmful) add('harmful start', r);
    if (Object.keys(w.spec.grades).length) add('paired', r);
    if (w.sizes.val <= 16) add('val ≤ 16', r);
    if (w.useless > 0) add('useless analysts', r);
  }
  return Object.fromEntries(
    Object.entries(groups).map(([k, rs]) => [
      k,
      {
        n: rs.length,
        mean: round(rs.reduce((a, r) => a + r.result.heldOut, 0) / rs.length),
        min: round(Math.min(...rs.map((r) => r.result.heldOut))),
        stuck: rs.filter(stuck).length,
      },
    ]),
  );
}
