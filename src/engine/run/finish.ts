/**
 * End of training (algorithm doc §2.9): final validation and promotion, test evaluation of
 * each distinct skill, and the run summary.
 */
import { gateScore, isAccept } from '../../core/verdict/gate';
import { skillHash } from '../../core/basics/hash';
import { injectEmptySlowUpdate } from '../../core/skill/protected-regions';
import { type EngineContext } from '../context';
import { gateOptions, scoreOnSelection } from '../validation-score';
import { gateCandidate } from '../gate';
import { policyOf, withFlips } from '../noise-ledger';
import type { RunState, RunSummary, TestReport, TransferReport } from '../types';
import { confirmTransfer } from './transfer';
import { otherTargetScores } from './target-scores';
import { scoreOnTest, type TestRole } from './test-split';

import { activationTest } from '../activation';
import { countActions, type TrainSession } from '../session';
import { diagnoseNoProgress, type StepFacts } from '../../core/verdict/diagnostics';
import { testGain } from '../../core/report/test-lift';
import { getStepArtifact } from '../artifacts';
import type { StepRecord } from '../types';

/** What the diagnosis needs of a step: its record and its gate artifact's verdicts. */
async function stepFacts(ctx: EngineContext, s: StepRecord): Promise<StepFacts> {
  const gate = await getStepArtifact(ctx.store, ctx.runId, s.step, 'gate');
  const review = await getStepArtifact(ctx.store, ctx.runId, s.step, 'review');
  return {
    step: s.step,
    action: s.action,
    rolloutN: s.rolloutN,
    rolloutErrors: s.rolloutErrors,
    rolloutHard: s.rolloutHard,
    patches: s.nFailurePatches + s.nSuccessPatches,
    merged: s.nEditsMerged,
    // A whole-skill rewrite applies no edits: its written candidate counts as applied.
    applied: s.rewriteChangeSummary ? 1 : (s.editApplySummary?.applied ?? 0),
    candidateScore: s.candidateGateScore,
    // What the candidate had to beat: the score the step began with, not the one it ended with.
    currentScore: s.scoreBefore ?? s.currentScore,
    complete: s.selectionComplete,
    skippedByCheck: Boolean(gate?.skippedByCheck),
    refusedByRule: gate?.rule ? !gate.rule.allowed : false,
    vetoed: review?.approved?.length === 0,
  };
}

/** End of training (§2.9): final validation and promotion, test evaluation, summary. */
export async function finish(session: TrainSession, prev: RunState): Promise<RunState> {
  const { ctx, data } = session;
  const state = structuredClone(prev);
  const c = ctx.config;
  session.stage('final', session.totalSteps, c.epochs);
  let finalSelection: number | null = state.gate.bestScore;
  // The final skill is the best one with an empty slow-update block added: same body, nothing to measure.
  const onlyPlaceholder = injectEmptySlowUpdate(state.gate.bestSkill) === state.gate.currentSkill;
  if (state.gate.currentSkill !== state.gate.bestSkill && !onlyPlaceholder) {
    // Always done (the reference promotes only when evaluating on test), and measured: a score
    // carried over from another skill is never taken as this one's. The final skill meets the best
    // item by item (issue #19): a stored best score may be a lucky draw no later skill can beat.
    // The one-shot phase (batch API when on): the final skill measured on validation.
    await scoreOnSelection(ctx, state, data, 'final', state.gate.currentSkill, { measured: true });
    const gated = await gateCandidate(ctx, state, data, {
      phase: 'final-best',
      against: 'best',
      candidate: state.gate.currentSkill,
      origin: state.gate.currentOrigin,
      step: session.totalSteps,
      check: null,
      policy: policyOf(c, state),
    });
    state.flips = withFlips(state.flips, gated.units);
    finalSelection = gated.compared!.candidate;
    if (isAccept(gated.decision.action)) {
      // Only best moves: the final skill is current already, with the score it ended with.
      const { bestSkill, bestScore, bestStep, bestOrigin } = gated.decision.state;
      state.gate = { ...state.gate, bestSkill, bestScore, bestStep, bestOrigin };
      ctx.emit({
        type: 'log',
        level: 'info',
        message: `The final skill beats the best on validation item by item (${gated.compared!.candidate.toFixed(4)} against ${gated.compared!.current.toFixed(4)}) and becomes the best skill.`,
      });
    } else if (gated.rule && !gated.rule.allowed)
      ctx.emit({
        type: 'log',
        level: 'info',
        message: `The final skill beats the best on validation, but the gate rule keeps the best: ${gated.rule.reason}`,
      });
  }
  // Under each other target that gated the run: the starting and the best skill on validation.
  const gateTargets = await otherTargetScores(ctx, state, data);
  const tests: TestReport[] = [];
  let lifts: Pick<RunSummary, 'lift' | 'liftOverNone'> = {};
  let transfer: TransferReport | null = null;
  const testIds = c.testLimit > 0 ? data.splits.test.slice(0, c.testLimit) : data.splits.test;
  if (c.evalTest && testIds.length) {
    session.stage('test', session.totalSteps, c.epochs);
    const roles: TestRole[] = [
      ['best', state.gate.bestSkill],
      ['initial', state.initialSkill],
      ['final', state.gate.currentSkill],
      ...(c.testNoSkill === false ? [] : [['none', ''] as const]),
    ];
    const scored = await scoreOnTest(ctx, state, roles, testIds, { prefix: 'test', noise: 'run' });
    tests.push(...scored.tests);
    lifts = scored.lifts;
    if (session.transfer)
      transfer = await confirmTransfer(ctx, state, session.transfer, { tests, lift: lifts.lift }, testIds);
  }
  if (c.evalTest && state.activation && session.activation && session.activation.splits.test.length) {
    session.stage('activation', session.totalSteps, c.epochs);
    state.activation = { ...state.activation, test: await activationTest(ctx, session.activation, state.activation) };
  }
  const steps = await ctx.store.getSteps(ctx.runId);
  const baseline = state.selectionCache[await skillHash(state.initialSkill)];
  const actions = countActions(steps);
  const baselineSelection = baseline ? gateScore(baseline.hard, baseline.soft, gateOptions(c), state.initialSkill) : 0;
  // Diagnosed only when no step was accepted: each step's current score is then the one its candidate faced.
  const facts = await Promise.all(steps.map((s) => stepFacts(ctx, s)));
  const diagnosis = diagnoseNoProgress(facts, { accepts: actions.accepts, baseline: baselineSelection });
  const summary: RunSummary = {
    baselineSelection,
    bestSelection: state.gate.bestScore,
    finalSelection,
    bestStep: state.gate.bestStep,
    bestOrigin: state.gate.bestOrigin,
    currentOrigin: state.gate.currentOrigin,
    totalSteps: steps.length,
    ...actions,
    ...(diagnosis ? { diagnosis } : {}),
    epochs: state.epochStats,
    ...(state.activation ? { activation: state.activation } : {}),
    tests,
    testDelta: testGain(tests, 'best', 'initial'),
    ...lifts,
    ...(transfer ? { transfer } : {}),
    ...(gateTargets.length ? { gateTargets } : {}),
    finalTestDelta: testGain(tests, 'final', 'initial'),
    usage: structuredClone(ctx.meter.byStage),
    totalCostUsd: ctx.meter.totalCostUsd,
    wallTimeMs: state.elapsedMs,
  };
  state.summary = summary;
  state.finalDone = true;
  return state;
}
