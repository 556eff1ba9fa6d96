/**
 * Stages 1–2 of a step (algorithm doc §2.4, §3.1): the current skill rolled out on each of the
 * step's batches, and each batch's rows read by the failure and success analysts — while a target
 * that has always answered the same is spot-checked in the same round trip. Returns what the
 * step saw; run-step.ts writes it.
 */
import type { NoisePolicy } from '../../core/verdict/noise';
import type { StageTimer } from '../context';
import { spotCheckRollout } from '../noise-ledger';
import { rolloutPhase } from '../rollout';
import type { TrainSession } from '../session';
import type { RolloutRow, StepRecord } from '../types';
import type { FlipUnits } from '../verdict';
import { reflect, type AnalystPatch } from './reflect';

export interface StepBatches {
  step: number;
  epoch: number;
  batches: { index: number; items: string[]; seed: number }[];
}

/** What a step's rollouts and analysts gave, over all its batches in order. */
export interface Seen {
  rows: RolloutRow[];
  /** The scored rows among them, and their mean hard and soft scores. */
  ok: RolloutRow[];
  hard: number;
  soft: number;
  failure: AnalystPatch[];
  success: AnalystPatch[];
  /** The failure analysts' summaries (for the step buffer) and reminders (for the appendix). */
  summaries: string[];
  appendixNotes: string[];
  batches: StepRecord['batches'];
  /** Repeated samples of the spot check, for the run's flip tally. */
  spotUnits: FlipUnits;
}

const meanOf = (rows: readonly RolloutRow[], f: 'hard' | 'soft') =>
  rows.length ? rows.reduce((s, r) => s + r[f], 0) / rows.length : 0;

/** What a step saw before its first batch, and what a skipped step saw: nothing. */
export function nothingSeen(): Seen {
  return {
    rows: [],
    ok: [],
    hard: 0,
    soft: 0,
    failure: [],
    success: [],
    summaries: [],
    appendixNotes: [],
    batches: [],
    spotUnits: {},
  };
}

export async function rolloutAndReflect(
  session: TrainSession,
  a: StepBatches & { key: string; current: string; policy: NoisePolicy; bufferText: string; metaText: string },
  timer: StageTimer,
): Promise<Seen> {
  const { ctx } = session;
  const seen = nothingSeen();
  for (const [i, batch] of a.batches.entries()) {
    const suffix = a.batches.length > 1 ? `/b${i}` : '';
    session.stage('rollout', a.step, a.epoch);
    const r = await timer.time('rollout', () =>
      rolloutPhase(ctx, { phase: `${a.key}/rollout${suffix}`, skill: a.current, itemIds: batch.items }),
    );
    session.stage('reflect', a.step, a.epoch);
    // A target that has always answered the same is spot-checked while the analysts work: a few
    // of the batch's items asked again, in the round trip the optimizer calls take anyway.
    const spot = spotCheckRollout(ctx, a.policy, `${a.key}/rollout${suffix}`, a.current, r.rows);
    const reflecting = timer.time('reflect', () =>
      reflect(ctx, {
        keyPrefix: `${a.key}${suffix}`,
        rows: r.rows,
        skill: a.current,
        batchSeed: batch.seed,
        bufferText: a.bufferText,
        metaText: a.metaText,
      }),
    );
    // Both settle before either's error is thrown: no call outlives a pause, no rejection goes unheard.
    const [reflected, spotted] = await Promise.allSettled([reflecting, spot]);
    if (reflected.status === 'rejected') throw reflected.reason;
    if (spotted.status === 'rejected') throw spotted.reason;
    const refl = reflected.value;
    Object.assign(seen.spotUnits, spotted.value);
    seen.rows.push(...r.rows);
    seen.failure.push(...refl.failure);
    seen.success.push(...refl.success);
    seen.summaries.push(...refl.summaries);
    seen.appendixNotes.push(...refl.appendixNotes);
    seen.batches.push({
      batchIndex: batch.index,
      batchSeed: batch.seed,
      nItems: r.rows.length,
      hard: r.hard,
      soft: r.soft,
      failurePatches: refl.failure.length,
      successPatches: refl.success.length,
    });
  }
  const ok = seen.rows.filter((r) => r.status === 'ok');
  return { ...seen, ok, hard: meanOf(ok, 'hard'), soft: meanOf(ok, 'soft') };
}
