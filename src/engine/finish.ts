/**
 * End of training (algorithm doc §2.9): final validation and promotion, test evaluation of
 * each distinct skill, and the run summary.
 */
import { gateScore } from '../core/gate';
import { skillHash } from '../core/hash';
import { injectEmptySlowUpdate } from '../core/protected-regions';
import { type EngineContext } from './context';
import { rolloutPhase, type PhaseResult } from './rollout';
import { gateOptions, scoreOnSelection } from './selection';
import type { RunState, RunSummary, TestReport } from './types';

import { countActions, type TrainSession } from './session';
import { diagnoseNoProgress, type StepFacts } from '../core/diagnostics';
import { stepKey } from './step-artifacts';
import type { StepRecord } from './types';

/** What the diagnosis needs of a step: its record and its gate artifact's verdicts. */
async function stepFacts(ctx: EngineContext, s: StepRecord): Promise<StepFacts> {
  const prefix = `${stepKey(s.step)}/`;
  const gate = (await ctx.store.getArtifact(ctx.runId, `${prefix}gate`))?.value as { skippedByCheck?: boolean; rule?: { allowed: boolean } | null } | undefined;
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
    currentScore: s.currentScore,
    complete: s.selectionComplete,
    skippedByCheck: Boolean(gate?.skippedByCheck),
    refusedByRule: gate?.rule ? !gate.rule.allowed : false,
  };
}

function testReport(skill: TestReport['skill'], r: PhaseResult, items: EngineContext['items']): TestReport {
  const byTaskType: TestReport['byTaskType'] = {};
  for (const row of r.rows) {
    if (row.status !== 'ok') continue;
    const t = items.get(row.itemId)?.taskType ?? 'overall';
    byTaskType[t] ??= { total: 0, hard: 0 };
    byTaskType[t].total++;
    byTaskType[t].hard += row.hard;
  }
  for (const v of Object.values(byTaskType)) v.hard = v.total ? v.hard / v.total : 0;
  return { skill, hash: r.skillHash, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, byTaskType };
}

/** How the test report lists the skills: from no skill to the last one trained. */
const ORDER: TestReport['skill'][] = ['none', 'initial', 'best', 'final'];

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
    // carried over from another skill is never taken as this one's.
    const g = await scoreOnSelection(ctx, state, data, 'final', state.gate.currentSkill, { measured: true });
    finalSelection = g.gate;
    if (g.gate > state.gate.bestScore) {
      state.gate = {
        ...state.gate,
        bestSkill: state.gate.currentSkill,
        bestScore: g.gate,
        bestStep: session.totalSteps,
        bestOrigin: state.gate.currentOrigin,
      };
      ctx.emit({
        type: 'log',
        level: 'info',
        message: `The final skill scores ${g.gate.toFixed(4)} on validation and becomes the best skill.`,
      });
    }
  }
  const tests: TestReport[] = [];
  const testIds = c.testLimit > 0 ? data.splits.test.slice(0, c.testLimit) : data.splits.test;
  if (c.evalTest && testIds.length) {
    session.stage('test', session.totalSteps, c.epochs);
    // One scoring per distinct skill: phases scored side by side would race the rollout cache and
    // score the same skill twice when best is the initial or the final skill.
    const roles: (readonly [TestReport['skill'], string])[] = [
      ['best', state.gate.bestSkill],
      ['initial', state.initialSkill],
      ['final', state.gate.currentSkill],
      ...(c.testNoSkill === false ? [] : [['none', ''] as const]),
    ];
    const distinct = roles.filter(([, skill], i) => roles.findIndex(([, other]) => other === skill) === i);
    const results = await Promise.all(
      distinct.map(([role, skill]) => rolloutPhase(ctx, { phase: `test/${role}`, skill, itemIds: testIds })),
    );
    const resultOf = (skill: string) => results[distinct.findIndex(([, other]) => other === skill)];
    for (const [role, skill] of [...roles].sort((a, b) => ORDER.indexOf(a[0]) - ORDER.indexOf(b[0]))) {
      tests.push(testReport(role, resultOf(skill), ctx.items));
    }
  }
  const steps = await ctx.store.getSteps(ctx.runId);
  const baseline = state.selectionCache[await skillHash(state.initialSkill)];
  const tInit = tests.find((t) => t.skill === 'initial');
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
    tests,
    testDelta: tInit ? tests.find((t) => t.skill === 'best')!.hard - tInit.hard : null,
    finalTestDelta: tInit ? tests.find((t) => t.skill === 'final')!.hard - tInit.hard : null,
    usage: structuredClone(ctx.meter.byStage),
    totalCostUsd: ctx.meter.totalCostUsd,
    wallTimeMs: state.elapsedMs,
  };
  state.summary = summary;
  state.finalDone = true;
  return state;
}
