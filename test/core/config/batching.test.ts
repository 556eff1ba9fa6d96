import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { batchesForStep, chunk, longitudinalOrder, planEpochBatches, reflectMinibatches } from '../../../src/core/config/batching';
import { shuffled } from '../../../src/core/basics/random';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

describe('planEpochBatches (§2.2)', () => {
  it('is one pass over train in the order of seed + 1000·epoch', () => {
    const plan = planEpochBatches(ids(10), { epoch: 1, seed: 42, batchSize: 4, accumulation: 1, stepsPerEpoch: 3 });
    expect(plan.map((b) => b.items.length)).toEqual([4, 4, 2]);
    expect(plan.flatMap((b) => b.items)).toEqual(shuffled(ids(10), 1042));
    expect(plan.map((b) => b.seed)).toEqual([1043, 1044, 1045]);
  });

  it('draws a fresh sample when accumulation exhausts the pass', () => {
    const plan = planEpochBatches(ids(5), { epoch: 2, seed: 1, batchSize: 4, accumulation: 3, stepsPerEpoch: 1 });
    expect(plan.map((b) => b.items.length)).toEqual([4, 1, 4]);
    expect(plan[2].items).toEqual(shuffled(shuffled(ids(5), 2001), 2001 + 2 + 1).slice(0, 4));
  });

  it('gives a different order each epoch and the same plan for the same seed', () => {
    const o = { seed: 7, batchSize: 3, accumulation: 1, stepsPerEpoch: 4 };
    const e1 = planEpochBatches(ids(12), { ...o, epoch: 1 });
    expect(planEpochBatches(ids(12), { ...o, epoch: 1 })).toEqual(e1);
    expect(planEpochBatches(ids(12), { ...o, epoch: 2 })).not.toEqual(e1);
  });

  it('covers every train item exactly once per epoch (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 20 }), fc.nat(1000), (n, B, seed) => {
        const steps = Math.ceil(n / B);
        const plan = planEpochBatches(ids(n), { epoch: 1, seed, batchSize: B, accumulation: 1, stepsPerEpoch: steps });
        expect(plan.flatMap((b) => b.items).sort()).toEqual(ids(n).sort());
      }),
    );
  });

  it('selects the batches of a step by accumulation', () => {
    const plan = planEpochBatches(ids(8), { epoch: 1, seed: 1, batchSize: 2, accumulation: 2, stepsPerEpoch: 2 });
    expect(batchesForStep(plan, 1, 2).map((b) => b.index)).toEqual([2, 3]);
  });
});

describe('reflect minibatches (§3.1)', () => {
  it('shuffles failures with the batch seed and successes with seed + 1, then chunks by M', () => {
    const f = ids(10);
    const s = ['s1', 's2', 's3'];
    const g = reflectMinibatches(f, s, 99, 4);
    expect(g.failure).toEqual(chunk(shuffled(f, 99), 4));
    expect(g.failure.map((m) => m.length)).toEqual([4, 4, 2]);
    expect(g.success).toEqual([shuffled(s, 100)]);
    expect(reflectMinibatches(f, s, 99, 4, true).success).toEqual([]);
  });
  it('chunk never loops on a size below 1', () => {
    expect(chunk([1, 2, 3], 0)).toEqual([[1], [2], [3]]);
  });
});

describe('longitudinal sample (§3.6)', () => {
  it('orders train by seed + 2000·epoch', () => {
    expect(longitudinalOrder(ids(30), 42, 2).slice(0, 20)).toEqual(shuffled(ids(30), 4042).slice(0, 20));
  });
});
