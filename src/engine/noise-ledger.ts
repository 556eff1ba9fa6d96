/**
 * The run's measure of how stochastic its target is (issue #19): every unit of repeated samples
 * (one skill, one item) the verdicts drew, kept in the run state so a resumed run knows it too.
 * A step reads its noise policy once, at its start, so every verdict of the step — and of a
 * resumed replay of it — settles items with the same margin.
 */
import { addUnit, flipRate, NO_FLIPS, noisePolicy, type FlipTally, type NoisePolicy } from '../core/noise';
import type { NoiseReading } from './events';
import type { RunConfig } from '../core/run-config';
import type { RunState } from './types';
import type { FlipUnits } from './verdict';
import type { Unit } from '../core/lift';

export function runFlipTally(state: Pick<RunState, 'flips'>): FlipTally {
  let t = NO_FLIPS;
  for (const [samples, minority] of Object.values(state.flips ?? {})) t = { units: t.units + 1, samples: t.samples + samples, minority: t.minority + minority };
  return t;
}

/** The policy of a step: the margin from the tally so far; settling off (or a run from before it) never re-samples. */
export function policyOf(config: RunConfig, state: Pick<RunState, 'flips'>): NoisePolicy {
  return noisePolicy(runFlipTally(state), config.settleVerdicts ? (config.maxSamples ?? 3) : 1);
}

/** A unit's samples replace what the run knew of it (a unit only ever gains samples). */
export function withFlips(flips: RunState['flips'], units: FlipUnits): NonNullable<RunState['flips']> {
  const out = { ...(flips ?? {}) };
  for (const [key, passes] of Object.entries(units)) {
    const t = addUnit(NO_FLIPS, passes);
    if (t.units && (out[key]?.[0] ?? 0) <= t.samples) out[key] = [t.samples, t.minority, passes.filter(Boolean).length, passes[0] ? 1 : 0];
  }
  return out;
}

/** The samples after each unit's first, as latent-class units (core/lift.ts): they were drawn whatever they say. */
export function laterSamples(state: Pick<RunState, 'flips'>): Unit[] {
  return Object.values(state.flips ?? {})
    .filter((f) => f[2] !== undefined && f[3] !== undefined && f[0] > 1)
    .map(([samples, , passes, first]) => ({ group: 'repeats', passes: passes! - first!, n: samples - 1 }));
}

/** What the dashboard shows of the run's noise. */
export function noiseReading(config: RunConfig, state: Pick<RunState, 'flips'>): NoiseReading {
  const t = runFlipTally(state);
  const p = noisePolicy(t, config.settleVerdicts ? (config.maxSamples ?? 3) : 1);
  return { flipRate: flipRate(t), flipUpper: p.flipUpper, samples: t.samples, units: t.units, margin: p.margin };
}
