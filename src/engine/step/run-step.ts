/**
 * One optimisation step (algorithm doc §2.4): roll the current skill out on the step's batches,
 * reflect, aggregate, choose the step size, build and gate the candidate, and record the step.
 */
import { putStepArtifact, stepKey } from './artifacts';
import { aggregate } from './aggregate';
import { StageTimer } from '../context';
import { emptyUsage } from '../meter';
import { reflect, type AnalystPatch } from './reflect';
import { rolloutPhase, type PhaseResult } from '../rollout';
import { describeEdit } from './rank-edits';
import { buildCandidate, type Candidate } from './candidate';
import { chooseBudget } from './choose-budget';
import { gateStep, type GateStepOutcome } from './gate-step';
import { buildRewriteCandidate } from './rewrite-candidate';
import { flushAppendix } from './appendix';
import { policyOf, spotCheckRollout, withFlips } from '../noise-ledger';
import type { FlipUnits } from '../verdict';
import { reviewCandidate } from './review';
import { describeSuggestion, normaliseSuggestion } from '../../core/update-modes';
import type { Edit } from '../../core/edits';
import { boundBuffer, renderBuffer, renderMetaBlock } from './step-buffer';
import type { RolloutRow, RunState, StageUsage, StepRecord } from '../types';

import type { TrainSession } from '../run/session';

function diffUsage(after: Record<string, StageUsage>, before: Record<string, StageUsage>): Record<string, StageUsage> {
  const out: Record<string, StageUsage> = {};
  for (const [k, a] of Object.entries(after)) {
    const b = before[k] ?? emptyUsage();
    if (a.calls === b.calls) continue;
    out[k] = {
      calls: a.calls - b.calls,
      promptTokens: a.promptTokens - b.promptTokens,
      completionTokens: a.completionTokens - b.completionTokens,
      reasoningTokens: a.reasoningTokens - b.reasoningTokens,
      costUsd: a.costUsd - b.costUsd,
    };
  }
  return out;
}

export interface StepArgs {
  step: number;
  epoch: number;
  stepInEpoch: number;
  batches: { index: number; items: string[]; seed: number }[];
}

/** One optimisation step (§2.4). Returns the new state; the caller saves it. */
export async function runStep(session: TrainSession, prev: RunState, a: StepArgs): Promise<RunState> {
  const { ctx } = session;
  const state = structuredClone(prev);
  const c = ctx.config;
  const started = ctx.now();
  const usageBefore = structuredClone(ctx.meter.byStage);
  // The score the candidate had to beat (the record's currentScore is the one after the step).
  const scoreBefore = state.gate.currentScore;
  const timer = new StageTimer(ctx.now);
  const key = stepKey(a.step);
  const current = state.gate.currentSkill;
  const bufferText = renderBuffer(state.stepBuffer, ctx.prompts);
  // How noisy the target has looked so far: every verdict of this step settles items with it.
  const policy = policyOf(c, state);
  const metaText = renderMetaBlock(state.metaSkill, ctx.prompts);

  const rows: RolloutRow[] = [];
  const failure: AnalystPatch[] = [];
  const success: AnalystPatch[] = [];
  const summaries: string[] = [];
  const appendixNotes: string[] = [];
  const batchStats: StepRecord['batches'] = [];
  const spotUnits: FlipUnits = {};
  for (const [i, batch] of a.batches.entries()) {
    const suffix = a.batches.length > 1 ? `/b${i}` : '';
    session.stage('rollout', a.step, a.epoch);
    const r: PhaseResult = await timer.time('rollout', () =>
      rolloutPhase(ctx, { phase: `${key}/rollout${suffix}`, skill: current, itemIds: batch.items }),
    );
    session.stage('reflect', a.step, a.epoch);
    // A target that has always answered the same is spot-checked while the analysts work: a few
    // of the batch's items asked again, in the round trip the optimizer calls take anyway.
    const spot = spotCheckRollout(ctx, policy, `${key}/rollout${suffix}`, current, r.rows);
    const reflecting = timer.time('reflect', () =>
      reflect(ctx, {
        keyPrefix: `${key}${suffix}`,
        rows: r.rows,
        skill: current,
        batchSeed: batch.seed,
        bufferText,
        metaText,
      }),
    );
    // Both settle before either's error is thrown: no call outlives a pause, no rejection goes unheard.
    const [reflected, spotted] = await Promise.allSettled([reflecting, spot]);
    if (reflected.status === 'rejected') throw reflected.reason;
    if (spotted.status === 'rejected') throw spotted.reason;
    const refl = reflected.value;
    Object.assign(spotUnits, spotted.value);
    rows.push(...r.rows);
    failure.push(...refl.failure);
    success.push(...refl.success);
    summaries.push(...refl.summaries);
    appendixNotes.push(...refl.appendixNotes);
    batchStats.push({
      batchIndex: batch.index,
      batchSeed: batch.seed,
      nItems: r.rows.length,
      hard: r.hard,
      soft: r.soft,
      failurePatches: refl.failure.length,
      successPatches: refl.success.length,
    });
  }
  const ok = rows.filter((r) => r.status === 'ok');
  const trainHard = ok.length ? ok.reduce((s, r) => s + r.hard, 0) / ok.length : 0;
  const trainSoft = ok.length ? ok.reduce((s, r) => s + r.soft, 0) / ok.length : 0;

  // What the step decides, gathered here; this function is the only writer of the run state and
  // of the step record (every stage below returns its outcome).
  let decided: Partial<StepRecord> = { action: 'skip_no_patches', nEditsMerged: 0, nEditsRanked: 0, editBudget: null };
  let gated: GateStepOutcome | null = null;
  if (failure.length + success.length > 0) {
    session.stage('aggregate', a.step, a.epoch);
    const agg = await timer.time('aggregate', () => aggregate(ctx, key, failure, success, current, metaText));
    const mode = c.updateMode;
    // Patch mode's items are edits; the rewrite modes keep theirs in the rewrite artifact.
    const merged = { reasoning: agg.merged.reasoning, edits: agg.merged.items as unknown as Edit[] };
    if (mode === 'patch') await putStepArtifact(ctx, key, 'merged', merged);

    session.stage('select', a.step, a.epoch);
    const lines =
      mode === 'patch'
        ? merged.edits.map(describeEdit)
        : agg.merged.items
            .map(normaliseSuggestion)
            .filter((x) => x !== null)
            .map(describeSuggestion);
    const sized = await timer.time('select', () =>
      chooseBudget(ctx, state.schedule, {
        key,
        current,
        lines,
        metaText,
        bufferText,
        n: ok.length,
        hard: trainHard,
        soft: trainSoft,
      }),
    );
    if (sized.schedule) state.schedule = sized.schedule;
    const budget = sized.budget;
    const built: Candidate | null = await timer.time('select', () =>
      mode === 'patch'
        ? buildCandidate(ctx, {
            key,
            current,
            merged,
            pending: state.pendingEdits ?? [],
            budget: budget ?? 0,
            metaText,
            rows,
            policy,
          })
        : buildRewriteCandidate(ctx, {
            key,
            current,
            merged: agg.merged,
            budget: budget ?? 0,
            metaText,
            bufferText,
            rows,
            policy,
          }),
    );
    decided = { nEditsMerged: agg.merged.items.length, nEditsRanked: 0, editBudget: budget, action: 'skip_no_rewrite' };
    if (built) {
      // Steering: with review on, the person's approval decides which edits meet the gate.
      const cand = await reviewCandidate(ctx, { key, step: a.step, current, cand: built, rows, policy });
      gated = await gateStep(session, state, {
        key,
        step: a.step,
        epoch: a.epoch,
        current,
        cand,
        rows,
        summaries,
        timer,
        policy,
      });
      state.flips = withFlips(state.flips, gated.units);
      state.stepBuffer = boundBuffer([...state.stepBuffer, gated.bufferEntry]);
      if (gated.pendingEdits !== undefined) state.pendingEdits = gated.pendingEdits;
      state.gate = gated.gate;
    }
  }
  // Reminders join the appendix after the gate, on skip paths too (§3.8).
  const withNotes = await flushAppendix(session, state, { key, step: a.step, notes: appendixNotes });
  if (withNotes) state.gate = withNotes;
  state.flips = withFlips(state.flips, spotUnits);
  state.nextStep = a.step + 1;
  const record: StepRecord = {
    runId: ctx.runId,
    step: a.step,
    epoch: a.epoch,
    stepInEpoch: a.stepInEpoch,
    scoreBefore,
    rolloutHard: trainHard,
    rolloutSoft: trainSoft,
    rolloutN: ok.length,
    rolloutErrors: rows.length - ok.length,
    batches: batchStats,
    nFailurePatches: failure.length,
    nSuccessPatches: success.length,
    nEditsMerged: 0,
    nEditsRanked: 0,
    editBudget: null,
    candidateHash: null,
    candidateSkillLen: null,
    editApplySummary: null,
    selectionHard: null,
    selectionSoft: null,
    selectionN: null,
    selectionComplete: null,
    selectionCacheHit: false,
    gateMetric: c.gateMetric,
    candidateGateScore: null,
    ...decided,
    ...gated?.record,
    // The gate's fields, then the step's own counts (a review may have changed what was ranked).
    ...(gated ? { nEditsMerged: decided.nEditsMerged, editBudget: decided.editBudget } : {}),
    action: gated?.record.action ?? decided.action ?? 'skip_no_patches',
    currentScore: state.gate.currentScore,
    bestScore: state.gate.bestScore,
    bestStep: state.gate.bestStep,
    currentOrigin: state.gate.currentOrigin,
    bestOrigin: state.gate.bestOrigin,
    skillLen: state.gate.currentSkill.length,
    timing: timer.timing,
    usage: diffUsage(ctx.meter.byStage, usageBefore),
    wallTimeMs: ctx.now() - started,
  };
  await ctx.store.putStep(record);
  ctx.emit({
    type: 'step',
    step: a.step,
    epoch: a.epoch,
    action: record.action,
    candidateScore: record.candidateGateScore,
    scoreBefore,
    currentScore: record.currentScore,
    bestScore: record.bestScore,
    trainHard,
    editBudget: record.editBudget,
  });
  const early = record.selectionComplete === false ? ', stopped early' : '';
  const scores =
    record.candidateGateScore !== null
      ? ` (candidate ${record.candidateGateScore.toFixed(4)}${early}, current ${scoreBefore.toFixed(4)})`
      : '';
  ctx.emit({ type: 'log', level: 'info', message: `Step ${a.step}/${session.totalSteps}: ${record.action}${scores}.` });
  return state;
}
