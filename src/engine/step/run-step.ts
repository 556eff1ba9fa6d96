/**
 * One optimisation step (algorithm doc §2.4): roll the current skill out on the step's batches,
 * reflect, aggregate, choose the step size, build and gate the candidate, and record the step.
 * This function is the only writer of the run state and of the step record while a step runs:
 * every stage below takes what it needs and returns its outcome.
 */
import { StageTimer } from '../context';
import { stepKey } from '../keys';
import { policyOf, withFlips } from '../noise-ledger';
import type { TrainSession } from '../session';
import type { RunState, StepRecord } from '../types';
import { flushAppendix } from './appendix';
import { gateStep, type GateStepOutcome } from './gate-step';
import { propose } from './propose';
import { reviewCandidate } from './review';
import { nothingSeen, rolloutAndReflect, type StepBatches } from './rollout-reflect';
import { boundBuffer, renderBuffer, renderMetaBlock } from './step-buffer';
import { stepRecord, usageSince, type Proposed } from './step-record';
import { stepMark } from '../curve-marks';
import { isSettled, settledAfter, slipsOnBatch } from '../settled';

export interface StepArgs extends StepBatches {
  stepInEpoch: number;
}

/** One optimisation step (§2.4). Returns the new state; the caller saves it. */
export async function runStep(session: TrainSession, prev: RunState, a: StepArgs): Promise<RunState> {
  const { ctx } = session;
  const state = structuredClone(prev);
  const started = ctx.now();
  const usageBefore = structuredClone(ctx.meter.byStage);
  const roundsBefore = ctx.verdictRounds.length;
  // The score the candidate had to beat (the record's currentScore is the one after the step).
  const scoreBefore = state.gate.currentScore;
  const timer = new StageTimer(ctx.now);
  const key = stepKey(a.step);
  const current = state.gate.currentSkill;
  const bufferText = renderBuffer(state.stepBuffer, ctx.prompts);
  const metaText = renderMetaBlock(state.metaSkill, ctx.prompts);
  // How noisy the target has looked so far: every verdict of this step settles items with it.
  const policy = policyOf(ctx.config, state);
  // A settled skill (engine/settled.ts) has nothing left to learn on this run: its step asks nothing.
  const settled = await isSettled(ctx, state);
  const seen = settled
    ? nothingSeen()
    : await rolloutAndReflect(session, { ...a, key, current, policy, bufferText, metaText }, timer);

  // Every failure a slip: what the analysts made of them explains noise (engine/settled.ts).
  const slips = !settled && (await slipsOnBatch(ctx, state, { key, current, rows: seen.rows, policy }));

  let proposed: Proposed | null = null;
  let gated: GateStepOutcome | null = null;
  if (!slips && seen.failure.length + seen.success.length > 0) {
    const p = await propose(
      session,
      {
        ...a,
        key,
        current,
        seen,
        schedule: state.schedule,
        pending: state.pendingEdits ?? [],
        policy,
        metaText,
        bufferText,
      },
      timer,
    );
    proposed = p.proposed;
    if (p.schedule) state.schedule = p.schedule;
    if (p.cand) {
      // Steering: with review on, the person's approval decides which edits meet the gate.
      const { rows, summaries } = seen;
      const cand = await reviewCandidate(ctx, { key, step: a.step, current, cand: p.cand, rows, policy });
      gated = await gateStep(session, state, { ...a, key, current, cand, rows, summaries, timer, policy });
      state.flips = withFlips(state.flips, gated.units);
      state.stepBuffer = boundBuffer([...state.stepBuffer, gated.bufferEntry]);
      if (gated.pendingEdits !== undefined) state.pendingEdits = gated.pendingEdits;
      state.gate = gated.gate;
    }
  }
  // Reminders join the appendix after the gate, on skip paths too (§3.8).
  const withNotes = await flushAppendix(session, state, { key, step: a.step, notes: seen.appendixNotes });
  if (withNotes) state.gate = withNotes;
  state.flips = withFlips(state.flips, seen.spotUnits);
  if (!settled)
    state.settled =
      state.gate.currentSkill === current
        ? await settledAfter(ctx, state, { key, current, rows: seen.rows, data: session.data, policy })
        : undefined;
  state.nextStep = a.step + 1;
  const record = stepRecord({
    ...a,
    runId: ctx.runId,
    gateMetric: ctx.config.gateMetric,
    scoreBefore,
    seen,
    proposed,
    gated: gated?.record ?? null,
    settled: settled || slips,
    after: state.gate,
    timing: timer.timing,
    usage: usageSince(ctx.meter.byStage, usageBefore),
    wallTimeMs: ctx.now() - started,
    verdictRounds: ctx.verdictRounds.slice(roundsBefore),
    spend: ctx.meter.spend(),
  });
  await ctx.store.putStep(record);
  announce(session, record);
  return state;
}

/** The step's event for the dashboard and its line in the log. */
function announce(session: TrainSession, r: StepRecord): void {
  const scoreBefore = r.scoreBefore ?? r.currentScore;
  session.ctx.emit({
    type: 'step',
    step: r.step,
    epoch: r.epoch,
    action: r.action,
    candidateScore: r.candidateGateScore,
    scoreBefore,
    currentScore: r.currentScore,
    bestScore: r.bestScore,
    trainHard: r.rolloutHard,
    editBudget: r.editBudget,
    ...(r.refusedBy ? { refusedBy: r.refusedBy } : {}),
  });
  const early = r.selectionComplete === false ? ', stopped early' : '';
  const scores =
    r.candidateGateScore !== null
      ? ` (candidate ${r.candidateGateScore.toFixed(4)}${early}, current ${scoreBefore.toFixed(4)})`
      : '';
  const mark = stepMark(r);
  if (mark) session.ctx.emit({ type: 'curve', mark });
  session.ctx.emit({
    type: 'log',
    level: 'info',
    message: `Step ${r.step}/${session.totalSteps}: ${r.action}${scores}${r.refusedBy ? `, refused by the target ${r.refusedBy}` : ''}.`,
  });
}
