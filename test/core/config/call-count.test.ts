import { describe, expect, it } from 'vitest';
import { estimateRunCalls, mergeCalls, mergeTreeCalls, rankCalls, reflectCalls, stepCalls, totalCalls, TARGET_STAGES } from '../../../src/core/config/call-count';
import { DEFAULT_RUN_CONFIG } from '../../../src/core/config/run-config';

describe('step formulas (§6)', () => {
  it.each([
    [0, 8, 0], [1, 8, 0], [2, 8, 1], [5, 8, 1], [8, 8, 1], [9, 8, 2], [64, 8, 9], [65, 8, 10], [3, 2, 2], [4, 2, 3], [5, 1, 4],
  ])('merge tree of %d patches with K=%d makes %d calls', (n, K, calls) => {
    expect(mergeTreeCalls(n, K)).toBe(calls);
  });

  it('reflect: ceil(F/M) + ceil(S/M)', () => {
    expect(reflectCalls(10, 30, 8)).toBe(6);
    expect(reflectCalls(8, 32, 8)).toBe(5);
    expect(reflectCalls(0, 40, 8)).toBe(5);
    expect(reflectCalls(10, 30, 8, true)).toBe(2);
  });

  it('the paper examples: F=10 → 6 analysts + 3 merges; F=8 → 5 + 2 (+ final); F=0 → 5 + 1', () => {
    expect(mergeCalls(2, 4, 8)).toBe(3);
    expect(mergeCalls(1, 4, 8)).toBe(2);
    expect(mergeCalls(0, 5, 8)).toBe(1);
  });

  it('rank only when the merged patch exceeds a positive budget', () => {
    expect(rankCalls(5, 4)).toBe(1);
    expect(rankCalls(4, 4)).toBe(0);
    expect(rankCalls(5, 0)).toBe(0);
  });

  it('a step with no patches makes no merge, rank or gate calls', () => {
    const c = stepCalls(
      { batchItems: 40, failures: 0, failurePatches: 0, successPatches: 0, mergedEdits: 0, budget: 4, gateRollouts: 0 },
      DEFAULT_RUN_CONFIG,
    );
    expect(c).toEqual({ rollout: 40, judge: 0, reflect: 5, merge: 0, lrDecision: 0, rank: 0, rewrite: 0, gate: 0 });
  });

  it('update modes: a rewrite step adds one rewrite call; a full-rewrite step asks no ranking nor step size', () => {
    const o = { batchItems: 40, failures: 20, failurePatches: 3, successPatches: 3, mergedEdits: 6, budget: 4, gateRollouts: 10 };
    const patch = stepCalls(o, { ...DEFAULT_RUN_CONFIG, lrControlMode: 'autonomous' });
    expect(patch).toMatchObject({ rank: 1, rewrite: 0, lrDecision: 1 });
    expect(stepCalls(o, { ...DEFAULT_RUN_CONFIG, updateMode: 'rewrite', lrControlMode: 'autonomous' })).toMatchObject({ rank: 1, rewrite: 1, lrDecision: 1, merge: patch.merge });
    expect(stepCalls(o, { ...DEFAULT_RUN_CONFIG, updateMode: 'full_rewrite', lrControlMode: 'autonomous' })).toMatchObject({ rank: 0, rewrite: 0, lrDecision: 0, merge: patch.merge });
  });
});

describe('run estimate', () => {
  it('update modes: one rewrite per step in rewrite mode; no ranking and no repair in full-rewrite mode', () => {
    const sizes = { train: 200, val: 50, test: 50 };
    const steps = 4 * 5;
    const patch = estimateRunCalls(DEFAULT_RUN_CONFIG, sizes);
    const rewrite = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, updateMode: 'rewrite' }, sizes);
    const full = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, updateMode: 'full_rewrite' }, sizes);
    expect([patch.rewrite, rewrite.rewrite, full.rewrite]).toEqual([0, steps, 0]);
    expect([patch.rank, rewrite.rank, full.rank]).toEqual([steps, steps, 0]);
    // Patch mode: up to two repair rounds per step (the default).
    expect([patch.repair, rewrite.repair, full.repair]).toEqual([2 * steps, 0, 0]);
  });

  it('skill-aware appendix: one more validation pass and at most one consolidation per step', () => {
    const sizes = { train: 200, val: 50, test: 50 };
    const steps = 4 * 5;
    const off = estimateRunCalls(DEFAULT_RUN_CONFIG, sizes);
    const on = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, skillAwareReflection: true }, sizes);
    expect(on.gate - off.gate).toBe(steps * 50);
    expect([off.appendix, on.appendix]).toEqual([0, steps]);
    expect(estimateRunCalls({ ...DEFAULT_RUN_CONFIG, skillAwareReflection: true, appendixConsolidateThreshold: 0 }, sizes).appendix).toBe(0);
  });

  it('SearchQA at paper scale: 400/200/1400, 4 epochs', () => {
    // The paper's loop: without the train check (its counts are tested below).
    const c = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, trainCheck: false, testNoSkill: false, noiseProbe: 0 }, { train: 400, val: 200, test: 1400 }, { trainAccuracy: 0.75 });
    expect(c.baseline).toBe(200);
    expect(c.rollout).toBe(1600);
    expect(c.reflect).toBe(40 * 6); // F=10, S=30
    expect(c.merge).toBe(40 * 3);
    expect(c.rank).toBe(40);
    expect(c.gate).toBe(40 * 200);
    expect(c.slowUpdateRollout).toBe(3 * 40);
    expect(c.slowUpdate).toBe(3);
    expect(c.metaSkill).toBe(3);
    expect(c.slowUpdateGate).toBe(3 * 200);
    expect(c.finalValidation).toBe(200);
    expect(c.test).toBe(4200);
    // ≈ 13–15k calls, as the algorithm doc estimates.
    expect(totalCalls(c)).toBeGreaterThan(13_000);
    expect(totalCalls(c)).toBeLessThan(16_000);
    expect(totalCalls(c, TARGET_STAGES)).toBe(200 + 1600 + 8000 + 120 + 600 + 200 + 4200);
    // The lift card's no-skill floor (on by default, not in the paper) scores the test split once more.
    expect(estimateRunCalls({ ...DEFAULT_RUN_CONFIG, trainCheck: false }, { train: 400, val: 200, test: 1400 }, { trainAccuracy: 0.75 }).test).toBe(5600);
    // Issue #19: the noise probe asks 16 validation items twice; test repeats multiply the test pass.
    const noisy = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, trainCheck: false, testRepeats: 3 }, { train: 400, val: 200, test: 1400 });
    expect(noisy.baseline).toBe(216);
    expect(noisy.test).toBe(3 * 5600);
    // Issue #43: by default an agent tries each test item three times (pass^3), a single answer once.
    const sizes = { train: 400, val: 200, test: 1400 };
    expect(estimateRunCalls(DEFAULT_RUN_CONFIG, sizes, { agentic: true }).test).toBe(3 * 5600);
    expect(estimateRunCalls(DEFAULT_RUN_CONFIG, sizes).test).toBe(5600);
    expect(estimateRunCalls({ ...DEFAULT_RUN_CONFIG, testRepeats: 2 }, sizes, { agentic: true }).test).toBe(2 * 5600);
  });

  it('counts the train check (at most the batch, again after each repair round) and the repair calls', () => {
    const sizes = { train: 80, val: 10, test: 0 };
    const one = { ...DEFAULT_RUN_CONFIG, epochs: 1, repairRounds: 1, blameEdits: false, dropRiders: false };
    const off = estimateRunCalls({ ...one, trainCheck: false }, sizes);
    const on = estimateRunCalls({ ...one, trainCheck: true, repairEdits: true }, sizes);
    const noRepair = estimateRunCalls({ ...one, trainCheck: true, repairEdits: false }, sizes);
    expect(off.trainCheck + off.repair).toBe(0);
    expect(on.trainCheck).toBe(2 * on.rollout);
    expect(on.repair).toBe(2); // two steps of 40
    expect(noRepair.trainCheck).toBe(noRepair.rollout);
    expect(noRepair.repair).toBe(0);
    expect(totalCalls(on, TARGET_STAGES) - totalCalls(off, TARGET_STAGES)).toBe(160);
    // Issue #19: a second round and a leave-one-out blame after each (every edit left out on 5 items, then a re-check).
    const full = estimateRunCalls({ ...one, repairRounds: 2, blameEdits: true }, sizes);
    expect(full.repair).toBe(4);
    expect(full.trainCheck).toBe(5 * full.rollout + 2 * 2 * 5 * 2 * DEFAULT_RUN_CONFIG.editBudget);
    // Issue #43: riders — every edit left out on the step's gains (at most its failures), then one more check.
    const riders = estimateRunCalls({ ...one, dropRiders: true }, sizes);
    expect(riders.trainCheck - on.trainCheck).toBe(2 * (DEFAULT_RUN_CONFIG.editBudget * 20 + 40));
  });

  it('prices the stability criterion: both skills tried up to k times on validation per step (issue #43)', () => {
    const sizes = { train: 80, val: 10, test: 0 };
    const one = { ...DEFAULT_RUN_CONFIG, epochs: 1 };
    const off = estimateRunCalls(one, sizes);
    // Two steps of 40; k = 2 for a single answer (its test tries one), 3 for an agent.
    expect(estimateRunCalls({ ...one, gateStability: true }, sizes).gate - off.gate).toBe(2 * 2 * 10 * 1);
    const agent = estimateRunCalls(one, sizes, { agentic: true });
    expect(estimateRunCalls({ ...one, gateStability: true }, sizes, { agentic: true }).gate - agent.gate).toBe(2 * 2 * 10 * 2);
  });

  it('prices pass^k on the learning curve: each point’s skill tried k − 1 more times on validation (issue #43)', () => {
    const sizes = { train: 80, val: 10, test: 0 };
    const two = { ...DEFAULT_RUN_CONFIG, epochs: 2, testRepeats: 3, noiseProbe: 4 };
    const off = estimateRunCalls(two, sizes);
    const on = estimateRunCalls({ ...two, curvePassK: true }, sizes);
    // Two steps an epoch, k = 3: two more tries of 10 items per candidate, less the probe's 4 at the baseline.
    expect(on.gate - off.gate).toBe(2 * 2 * 10 * 2);
    expect(on.baseline - off.baseline).toBe(10 * 2 - 4);
    // The second epoch's slow update is a point too.
    expect(on.slowUpdateGate - off.slowUpdateGate).toBe(10 * 2);
  });

  it('counts a short last batch and judge calls', () => {
    const c = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, epochs: 1, scorer: { kind: 'judge' } }, { train: 50, val: 10, test: 0 });
    expect(c.rollout).toBe(50);
    expect(c.judge).toBe(c.baseline + c.rollout + c.trainCheck + c.gate + c.finalValidation);
    expect(c.slowUpdate).toBe(0);
  });
});

describe('autonomous learning rate in the counts', () => {
  it('adds one step-size call per step that reaches select', () => {
    const obs = { batchItems: 40, failures: 10, failurePatches: 2, successPatches: 4, mergedEdits: 6, budget: 3, gateRollouts: 20 };
    expect(stepCalls(obs, { ...DEFAULT_RUN_CONFIG, lrControlMode: 'autonomous' }).lrDecision).toBe(1);
    expect(stepCalls(obs, DEFAULT_RUN_CONFIG).lrDecision).toBe(0);
    const c = estimateRunCalls({ ...DEFAULT_RUN_CONFIG, lrControlMode: 'autonomous', epochs: 1 }, { train: 80, val: 10, test: 0 });
    expect(c.lrDecision).toBe(2);
  });
});
