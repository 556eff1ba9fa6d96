// The benchmark's own measures (issue #32), through the real SDK against the test server: the
// training calls a run took to first export a skill worth 0.95 held-out, the A/A world (nothing to
// learn: every candidate is a rewording, as good as the start) and the locked start (a first right
// step that fixes no train item).
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { SKILLOPT_KNOBS, hardWorldDataset, noiseFreeAccuracy, trainSeed, type SeedResult } from '../support/bench-quality';
import { AA_WORLD } from '../support/aa-world';
import { BROAD_PAIRS_WORLD, HARD_WORLD } from '../support/rule-world';

describe('calls to reach 0.95 held-out', () => {
  const store = new MemoryRunStore();
  let result: SeedResult;
  beforeAll(async () => {
    // The settled stop off: the test reads the calls of the run's last step, which the stop would skip.
    result = await trainSeed('hard', 1, { settledStop: 0 }, { store, callsTo: 0.5 });
  }, 120_000);

  it('counts the calls to another held-out too (--calls-to, issue #40): a lower one is reached no later', () => {
    expect(result.initialHeldOut).toBeLessThan(0.5);
    expect(result.callsToShown!.threshold).toBe(0.5);
    expect(result.callsToShown!.calls!).toBeGreaterThan(result.callsByStage.baseline);
    expect(result.callsToShown!.calls!).toBeLessThanOrEqual(result.callsTo95!);
  });

  it('counts the calls up to the first step whose best scores 0.95, fewer than the run took', async () => {
    expect(result.heldOut).toBe(1);
    const to95 = result.callsTo95!;
    expect(to95).toBeGreaterThan(result.callsByStage.baseline);
    expect(to95).toBeLessThan(result.trainingTargetCalls);
    // The first step whose best scores 0.95 comes before the run's end: its calls are fewer.
    const data = hardWorldDataset(HARD_WORLD);
    const steps = (await store.getSteps('hard-1')).sort((a, b) => a.step - b.step);
    const versions = await store.getSkillVersions('hard-1');
    const scores = steps.map((s) => noiseFreeAccuracy(versions.find((v) => v.origin === s.bestOrigin)!.text, data, HARD_WORLD));
    const first = scores.findIndex((x) => x >= 0.95);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(steps.length - 1);
    const later = (await store.listRollouts('hard-1')).filter((r) => !r.cached && new RegExp(`^s0*${steps.length}/`).test(r.phase));
    expect(later.length).toBeGreaterThan(0);
    expect(to95).toBeLessThanOrEqual(result.trainingTargetCalls - later.length);
    const stages = Object.values(result.callsByStage).reduce((a, x) => a + x, 0);
    expect(stages).toBe(result.trainingTargetCalls);
  });
});

describe('the A/A world', () => {
  it('has nothing to learn: whatever the run exports knows what the start knew', async () => {
    const r = await trainSeed('aa', 2, SKILLOPT_KNOBS);
    expect(r.initialHeldOut).toBe(0.5);
    expect(r.heldOut).toBe(0.5);
    expect(r.bestValidationTruth).toBe(0.5);
    expect(r.callsTo95).toBeNull();
    // The start right on half the items: four families of eight.
    expect(noiseFreeAccuracy(AA_WORLD.initialSkill, hardWorldDataset(AA_WORLD), AA_WORLD, 'val')).toBe(0.5);
  }, 120_000);
});

describe('the locked start', () => {
  it('starts at the broad rule: three families of eight', () => {
    const data = hardWorldDataset(BROAD_PAIRS_WORLD);
    expect(noiseFreeAccuracy(BROAD_PAIRS_WORLD.initialSkill, data, BROAD_PAIRS_WORLD)).toBe(0.375);
  });
});
