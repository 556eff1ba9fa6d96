import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { INITIAL_SKILL, SMALL_CONFIG, trainOnce, worldDataset } from '../support/harness';
import { killAndResumeAt, pointsAfter, referenceRun, type World } from '../support/resume-harness';
import { curveMarks } from '../../src/engine/curve-marks';
import { learningCurve, type CurveMark } from '../../src/core/report/learning-curve';
import { TARGET_STAGES } from '../../src/core/config/stages';
import type { StageUsage } from '../../src/engine/types';

const server = sharedLlmServer();
const PRICES = { target: { input: 1, output: 2 }, optimizer: { input: 3, output: 6 } };

/** Target calls of the stages given, from a usage table. */
const targetCalls = (usage: Record<string, StageUsage>, stages: readonly string[]) =>
  stages.reduce((a, s) => a + (usage[s]?.calls ?? 0), 0);

describe('the learning curve a run records', () => {
  it('has the baseline, every step and each measured boundary, at the calls and cost the meter counted then', async () => {
    const marks: CurveMark[] = [];
    const { outcome, store, runId } = await trainOnce({
      url: server().url,
      runId: 'curve',
      prices: PRICES,
      // The settled stop off: the curve's measured boundaries are what this test reads.
      config: { slowUpdateGated: true, settledStop: 0 },
      onEvent: (e) => e.type === 'curve' && marks.push(e.mark),
    });
    expect(outcome.status).toBe('completed');
    const state = (await store.loadState(runId))!;
    const steps = await store.getSteps(runId);
    const curve = learningCurve(curveMarks(state, steps));
    const measuredBoundaries = state.epochStats.filter((e) => e.slowUpdate?.gateScore !== undefined).length;
    expect(measuredBoundaries).toBeGreaterThan(0);
    expect(curve).toHaveLength(1 + steps.length + measuredBoundaries);
    // What the page saw live is what the records rebuild.
    expect(learningCurve(marks)).toEqual(curve);

    const summary = outcome.summary!;
    expect(curve[0]).toMatchObject({ kind: 'baseline', targetCalls: summary.usage.baseline.calls, score: state.baselineScore });
    // Every target call but the test's and the final validation's came before the last point.
    const training = TARGET_STAGES.filter((s) => s !== 'test' && s !== 'finalValidation');
    expect(curve.at(-1)!.targetCalls).toBe(targetCalls(summary.usage, training));
    expect(curve.at(-1)!.costUsd).toBeGreaterThan(0);
    expect(curve.at(-1)!.costUsd).toBeLessThan(summary.totalCostUsd);
    // A step's calls are the ones the step itself recorded, on top of what came before.
    const stepPoints = curve.filter((p) => p.kind === 'step');
    for (const [i, p] of stepPoints.entries()) {
      const before = curve[curve.indexOf(p) - 1];
      const own = targetCalls(steps[i].usage, TARGET_STAGES);
      expect(p.targetCalls - before.targetCalls).toBe(own);
    }
    const gated = stepPoints.filter((p) => p.score !== null);
    expect(gated.length).toBeGreaterThan(0);
    for (const p of gated) expect(p.n).toBe(steps.find((s) => s.step === p.step)!.selectionN);
    expect(curve.at(-1)!.best).toBe(Math.max(...curve.map((p) => p.best)));
    // One measure: a step that became the best draws its dot where the run's best then stood.
    const newBests = steps.filter((s) => s.bestStep === s.step && s.candidateGateScore !== null);
    expect(newBests.length).toBeGreaterThan(0);
    for (const s of newBests) {
      expect(s.candidateSettledScore).toBe(s.bestScore);
      expect(curve.find((p) => p.kind === 'step' && p.step === s.step)!.score).toBe(s.bestScore);
    }
  });

  it('is the same after kills and resumes as in an unbroken run', async () => {
    const w: World = {
      server,
      config: { ...SMALL_CONFIG, epochs: 2, slowUpdateGated: true },
      data: worldDataset(60),
      initialSkill: INITIAL_SKILL,
      prices: PRICES,
    };
    const ref = await referenceRun(w);
    expect(ref.reference.curve.length).toBeGreaterThan(3);
    await killAndResumeAt(
      w,
      ref,
      pointsAfter(ref.writeLog, ['putRollout:baseline', 'putRollout:/gate', 'putStep:2', 'putRollout:e02/gate']),
    );
  }, 120_000);
});
