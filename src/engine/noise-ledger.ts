/**
 * The run's measure of how stochastic its target is (issue #19): every unit of repeated samples
 * (one skill, one item) the verdicts drew, kept in the run state so a resumed run knows it too.
 * A step reads its noise policy once, at its start, so every verdict of the step — and of a
 * resumed replay of it — settles items with the same margin.
 */
import {
  addUnit,
  flipRate,
  NO_FLIPS,
  noisePolicy,
  type FlipTally,
  type NoisePolicy,
  type RepeatUnit,
} from '../core/verdict/noise';
import type { NoiseReading } from './events';
import type { RunConfig } from '../core/config/run-config';
import type { RolloutRow, RunState } from './types';
import type { EngineContext } from './context';
import { rolloutPhase } from './rollout';
import { comparatorOf } from '../core/verdict/comparator';
import { skillHash } from '../core/basics/hash';
import { isPass } from '../core/verdict/credit';
import type { FlipUnits } from './verdict';
import type { Unit } from '../core/verdict/lift';

export function runFlipTally(state: Pick<RunState, 'flips'>): FlipTally {
  let t = NO_FLIPS;
  for (const [samples, minority] of Object.values(state.flips ?? {}))
    t = { units: t.units + 1, samples: t.samples + samples, minority: t.minority + minority };
  return t;
}

/** The policy of a step: the margin from the tally so far; settling off (or a run from before it) never re-samples. */
export function policyOf(config: RunConfig, state: Pick<RunState, 'flips'>): NoisePolicy {
  return noisePolicy(runFlipTally(state), config.settleVerdicts ? (config.maxSamples ?? 3) : 1, repeatUnits(state));
}

/** Every repeated unit with its answers, or none when a run from before kept only their tallies. */
export function repeatUnits(state: Pick<RunState, 'flips'>): RepeatUnit[] | undefined {
  const all = Object.values(state.flips ?? {});
  if (all.some((f) => f[2] === undefined || f[3] === undefined)) return undefined;
  return all.map(([samples, , passes, first]) => ({ samples, passes: passes!, first: first === 1 }));
}

/** A unit's samples replace what the run knew of it (a unit only ever gains samples). */
export function withFlips(flips: RunState['flips'], units: FlipUnits): NonNullable<RunState['flips']> {
  const out = { ...(flips ?? {}) };
  for (const [key, passes] of Object.entries(units)) {
    const t = addUnit(NO_FLIPS, passes);
    if (t.units && (out[key]?.[0] ?? 0) <= t.samples)
      out[key] = [t.samples, t.minority, passes.filter(Boolean).length, passes[0] ? 1 : 0];
  }
  return out;
}

/**
 * The samples after each unit's first, as latent-class units (core/verdict/lift.ts): they were drawn
 * whatever they say.
 */
export function laterSamples(state: Pick<RunState, 'flips'>): Unit[] {
  return Object.values(state.flips ?? {})
    .filter((f) => f[2] !== undefined && f[3] !== undefined && f[0] > 1)
    .map(([samples, , passes, first]) => ({ group: 'repeats', passes: passes! - first!, n: samples - 1 }));
}

/** What the dashboard shows of the run's noise. */
export function noiseReading(config: RunConfig, state: Pick<RunState, 'flips'>): NoiseReading {
  const t = runFlipTally(state);
  const p = noisePolicy(t, config.settleVerdicts ? (config.maxSamples ?? 3) : 1);
  const reading = {
    flipRate: flipRate(t),
    flipUpper: p.flipUpper,
    samples: t.samples,
    units: t.units,
    margin: p.margin,
  };
  if (comparatorOf(config) !== 'posterior') return reading;
  return { ...reading, posterior: { confidence: config.gateConfidence!, doubtfulSide: !!config.askDoubtfulSide } };
}

/** Items of a step's batch a spot check asks again. */
export const SPOT_ITEMS = 4;

/**
 * Spot check (issue #19): while the target has never changed an answer and the evidence is still
 * thin, the first few items of a step's rollout are asked once more. Unchosen items: their flips
 * are an unbiased measure of the noise a lucky probe may have hidden.
 */
export async function spotCheckRollout(
  ctx: EngineContext,
  policy: NoisePolicy,
  phase: string,
  skill: string,
  rows: readonly RolloutRow[],
): Promise<FlipUnits> {
  if (!policy.spotCheck || policy.margin > 1 || policy.maxSamples < 2) return {};
  const first = rows.filter((r) => r.status === 'ok').slice(0, SPOT_ITEMS);
  if (!first.length) return {};
  const again = await rolloutPhase(ctx, {
    phase: `${phase}/r1`,
    skill,
    itemIds: first.map((r) => r.itemId),
    orders: first.map((r) => r.order),
    repeat: 1,
  });
  const hash = await skillHash(skill);
  const units: FlipUnits = {};
  again.rows.forEach((r, i) => {
    if (r.status === 'ok') units[`${hash}|${r.itemId}`] = [isPass(first[i].hard), isPass(r.hard)];
  });
  return units;
}
