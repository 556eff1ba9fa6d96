/**
 * End of training (algorithm doc §2.9): final validation and promotion, test evaluation of
 * each distinct skill, and the run summary.
 */
import { gateScore, isAccept } from '../../core/verdict/gate';
import { skillHash } from '../../core/basics/hash';
import { injectEmptySlowUpdate } from '../../core/skill/protected-regions';
import { type EngineContext } from '../context';
import { rolloutPhase, type PhaseResult } from '../rollout';
import { gateOptions, scoreOnSelection } from '../validation-score';
import { gateCandidate } from '../gate';
import { laterSamples, policyOf, runFlipTally, withFlips } from '../noise-ledger';
import type { RolloutRow, RunState, RunSummary, TestReport } from '../types';
import { fitLatent, liftInterval, type Unit } from '../../core/verdict/lift';
import { flipRate, resamples, type NoisePolicy } from '../../core/verdict/noise';
import { isSettled } from '../../core/verdict/paired-verdict';
import { isPass } from '../../core/verdict/credit';
import { passKOf, type ItemTries } from '../../core/verdict/pass-k';
import { testTries } from '../../core/config/run-config';

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

/**
 * The best skill's lift over the starting skill (and over no skill) on test, with the target's
 * noise taken out and an interval over items and noise (core/verdict/lift.ts).
 */
function honestLifts(
  state: RunState,
  roles: readonly (readonly [TestReport['skill'], string])[],
  distinct: readonly (readonly [TestReport['skill'], string])[],
  rowsByDistinct: readonly RolloutRow[][],
  repeats: number,
): Pick<RunSummary, 'lift' | 'liftOverNone'> {
  const samples = (skill: string) => {
    const m = new Map<string, { passes: number; n: number }>();
    for (const r of rowsByDistinct[distinct.findIndex(([, other]) => other === skill)] ?? []) {
      if (r.status !== 'ok') continue;
      const x = m.get(r.itemId) ?? { passes: 0, n: 0 };
      m.set(r.itemId, { passes: x.passes + (isPass(r.hard) ? 1 : 0), n: x.n + 1 });
    }
    return m;
  };
  const units: Unit[] = distinct.flatMap(([role, skill]) =>
    [...samples(skill).values()].map((x) => ({ group: role, ...x })),
  );
  const tally = runFlipTally(state);
  // The run's repeated validation samples tell misses from guesses; a skill's test samples its share known.
  const fit = fitLatent([...units, ...laterSamples(state)], tally);
  const groupOf = (skill: string) => distinct.find(([, other]) => other === skill)![0];
  const liftOver = (against: 'initial' | 'none'): RunSummary['lift'] => {
    const base = roles.find(([r]) => r === against)?.[1];
    if (base === undefined) return undefined;
    const best = state.gate.bestSkill;
    const [b, a] = [samples(best), samples(base)];
    const items = [...b.keys()].filter((id) => a.has(id)).map((id) => ({ best: b.get(id)!, base: a.get(id)! }));
    // The same skill on both sides: no lift, and no noise between a skill and itself.
    const l =
      best === base
        ? {
            measured: 0,
            estimate: 0,
            interval: [0, 0] as [number, number],
            level: 0.95,
            n: items.length,
            uncertain: true,
          }
        : liftInterval(items, fit, { best: groupOf(best), base: groupOf(base) }, { seed: state.config.seed });
    return {
      against,
      ...l,
      noise: { miss: fit.miss, guess: fit.guess, flipRate: flipRate(tally), repeatedSamples: tally.samples },
      repeats,
    };
  };
  return { lift: liftOver('initial'), liftOverNone: liftOver('none') };
}

/** Test items a skill is asked again on when the target has looked deterministic. */
const SPOT_CHECKS = 8;

/**
 * Ask one skill again on the test items whose first answer failed (or passed), until each such
 * item's outcome is settled by the noise policy's margin or its samples run out. Returns the new rows.
 */
async function settleAnswers(
  ctx: EngineContext,
  phase: string,
  skill: string,
  rows: readonly RolloutRow[],
  ids: readonly string[],
  policy: NoisePolicy,
  want: 'fails' | 'passes',
): Promise<RolloutRow[]> {
  const samples = new Map<string, RolloutRow[]>();
  for (const r of rows) if (r.status === 'ok') samples.set(r.itemId, [...(samples.get(r.itemId) ?? []), r]);
  const position = new Map(ids.map((id, i) => [id, i]));
  const matching = ids.filter((id) => samples.has(id) && isPass(samples.get(id)![0].hard) === (want === 'passes'));
  // A target that looked deterministic is spot-checked on a few items (one more sample each).
  // A target that looked deterministic is still spot-checked here, however long it agreed: the
  // best skill's failures on test are where misses hide, and the lift's correction needs them.
  const spot = !resamples(policy);
  const open = spot ? matching.slice(0, SPOT_CHECKS) : matching;
  const added: RolloutRow[] = [];
  const done = new Set<string>();
  for (;;) {
    const asks = open.filter((id) => {
      const xs = samples.get(id)!;
      return (
        !done.has(id) && (spot ? xs.length < 2 : !isSettled(xs, policy.margin + 1) && xs.length < policy.maxSamples)
      );
    });
    if (!asks.length) return added;
    const byK = new Map<number, string[]>();
    for (const id of asks) byK.set(samples.get(id)!.length, [...(byK.get(samples.get(id)!.length) ?? []), id]);
    for (const [k, group] of byK) {
      const r = await rolloutPhase(ctx, {
        phase: `${phase}/r${k}`,
        skill,
        itemIds: group,
        orders: group.map((id) => position.get(id) ?? 0),
        repeat: k,
      });
      r.rows.forEach((row, i) => {
        if (row.status === 'ok') {
          samples.get(group[i])!.push(row);
          added.push(row);
        } else done.add(group[i]);
      });
    }
  }
}

/** Each test item's scored tries and passes: an errored try is no try (an API error is not a wrong answer). */
function triesOf(rows: readonly RolloutRow[], ids: readonly string[]): ItemTries[] {
  const by = new Map(ids.map((id) => [id, { n: 0, passes: 0 }]));
  for (const r of rows) {
    const t = by.get(r.itemId);
    if (!t || r.status !== 'ok') continue;
    t.n++;
    if (isPass(r.hard)) t.passes++;
  }
  return [...by.values()];
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
  const tests: TestReport[] = [];
  let lifts: Pick<RunSummary, 'lift' | 'liftOverNone'> = {};
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
    // Tries per test item (a knob; three for an agent by default): more samples make the lift's
    // interval tighter on a noisy target, and give pass^k beside pass^1 (issue #43).
    const repeats = testTries(c, ctx.agent.active);
    const policy = policyOf(c, state);
    const passK = new Map<string, TestReport['passK']>();
    const again = await Promise.all(
      distinct.map(async ([role, skill]) => {
        const rows = [...results[distinct.findIndex(([, other]) => other === skill)].rows];
        for (let k = 1; k < repeats; k++)
          rows.push(
            ...(await rolloutPhase(ctx, { phase: `test/${role}/r${k}`, skill, itemIds: testIds, repeat: k })).rows,
          );
        // pass^k from the k tries every item had alike: the answers settled below are asked only
        // where a first answer failed (or passed), and would tilt it.
        const atK = repeats > 1 ? passKOf(triesOf(rows, testIds), repeats) : null;
        if (atK) passK.set(skill, atK);
        // On a noisy target, the answers a lift hinges on are asked again until settled: the best
        // skill's failures (a miss, or not known?) and a starting point's passes (known, or a guess?).
        const want = skill === state.gate.bestSkill ? 'fails' : role === 'initial' || role === 'none' ? 'passes' : null;
        if (want && policy.maxSamples > 1)
          rows.push(...(await settleAnswers(ctx, `test/${role}`, skill, rows, testIds, policy, want)));
        return rows;
      }),
    );
    lifts = honestLifts(state, roles, distinct, again, repeats);
    for (const t of tests) {
      const atK = passK.get(roles.find(([role]) => role === t.skill)![1]);
      if (atK) t.passK = atK;
    }
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
    finalTestDelta: testGain(tests, 'final', 'initial'),
    usage: structuredClone(ctx.meter.byStage),
    totalCostUsd: ctx.meter.totalCostUsd,
    wallTimeMs: state.elapsedMs,
  };
  state.summary = summary;
  state.finalDone = true;
  return state;
}
