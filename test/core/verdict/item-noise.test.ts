// Noise item by item (issue #32): each item draws its own miss and guess rates from the run's mix,
// fitted on its repeats — a slippery item's flips no longer make every item look noisy, and a
// steady item's flip is read as what it is.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { noiseMixture, posteriorPerItem } from '../../../src/core/verdict/item-noise';
import type { RepeatUnit } from '../../../src/core/verdict/noise';
import { CHANGE_LEVELS, posteriorOverNoise, type ItemTallies } from '../../../src/core/verdict/paired-posterior';

const t = (passes: number, n: number) => ({ passes, n });
const prior = () => ({ known: 0.5, change: 0.1 });
const steadyUnits = (k: number): RepeatUnit[] =>
  Array.from({ length: k }, (_, i) =>
    i % 2 ? { samples: 3, passes: 3, first: true } : { samples: 3, passes: 0, first: false },
  );
/** Known items that slip one answer in three. */
const slipperyUnits = (k: number): RepeatUnit[] =>
  Array.from(
    { length: k },
    (_, i) =>
      [
        { samples: 3, passes: 2, first: true },
        { samples: 3, passes: 2, first: false },
        { samples: 3, passes: 3, first: true },
      ][i % 3],
  );
const massWhere = (levels: { miss: number; weight: number }[], f: (m: number) => boolean) =>
  levels.filter((l) => f(l.miss)).reduce((a, l) => a + l.weight, 0);

describe('the run’s mix of item noise', () => {
  it('sums to one', () => {
    const mix = noiseMixture([...steadyUnits(20), ...slipperyUnits(20)]);
    expect(mix.reduce((a, l) => a + l.weight, 0)).toBeCloseTo(1, 4);
  });

  it('keeps both kinds when a run has steady and slippery items, where one level for all picks between them', () => {
    const mix = noiseMixture([...steadyUnits(30), ...slipperyUnits(30)]);
    expect(massWhere(mix, (m) => m <= 0.035)).toBeGreaterThan(0.2);
    expect(massWhere(mix, (m) => m >= 0.2)).toBeGreaterThan(0.2);
  });

  it('a steady run leaves little weight on noisy levels', () => {
    expect(massWhere(noiseMixture(steadyUnits(60)), (m) => m >= 0.1)).toBeLessThan(0.15);
  });
});

describe('a verdict with each item’s noise its own', () => {
  const mix = noiseMixture([...steadyUnits(30), ...slipperyUnits(30)]);
  // Ten slippery items answered alike by both, and one steady item gained (every sample agrees).
  const items: ItemTallies[] = [
    { itemId: 'gain', ref: t(0, 3), cand: t(3, 3) },
    ...Array.from({ length: 10 }, (_, i) => ({ itemId: `s${i}`, ref: t(2, 3), cand: t(i % 2 ? 2 : 3, 3) })),
  ];

  it('believes a steady item’s gain more than one noise level for the whole run does', () => {
    const own = posteriorPerItem(items, mix, prior, CHANGE_LEVELS).items[0].up;
    const shared = posteriorOverNoise(items, mix, prior, CHANGE_LEVELS).items[0].up;
    expect(own).toBeGreaterThan(0.8);
    expect(own).toBeGreaterThan(shared + 0.1);
  });

  it('favours neither side: swapping the skills swaps better and worse', () => {
    const tally = fc
      .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }))
      .map(([p, n]) => t(Math.min(p, n), n));
    fc.assert(
      fc.property(fc.array(fc.tuple(tally, tally), { minLength: 1, maxLength: 8 }), (pairs) => {
        const fwd = pairs.map(([r, c], i) => ({ itemId: `i${i}`, ref: r, cand: c }));
        const back = pairs.map(([r, c], i) => ({ itemId: `i${i}`, ref: c, cand: r }));
        const a = posteriorPerItem(fwd, mix, prior, CHANGE_LEVELS);
        const b = posteriorPerItem(back, mix, prior, CHANGE_LEVELS);
        expect(a.pBetter).toBeCloseTo(b.pWorse, 9);
        expect(a.pWorse).toBeCloseTo(b.pBetter, 9);
      }),
      { numRuns: 40 },
    );
  });

  it('flips both ways are no gain: a rewording is not taken for one', () => {
    const flips: ItemTallies[] = [
      ...Array.from({ length: 3 }, (_, i) => ({ itemId: `u${i}`, ref: t(0, 1), cand: t(1, 1) })),
      ...Array.from({ length: 3 }, (_, i) => ({ itemId: `d${i}`, ref: t(1, 1), cand: t(0, 1) })),
      ...Array.from({ length: 18 }, (_, i) => ({ itemId: `k${i}`, ref: t(i % 2, 1), cand: t(i % 2, 1) })),
    ];
    const v = posteriorPerItem(flips, mix, prior, CHANGE_LEVELS);
    expect(v.pBetter).toBeCloseTo(v.pWorse, 9);
    expect(v.pBetter).toBeLessThan(0.5);
  });

  it('shows each side’s expected pass rate on a measured score’s scale', () => {
    const v = posteriorPerItem(items, mix, prior, CHANGE_LEVELS);
    expect(v.candRate).toBeGreaterThan(v.refRate);
    expect(v.candRate).toBeLessThanOrEqual(1);
    expect(v.refRate).toBeGreaterThan(0.4);
  });
});

describe('an agent that slips on tasks it knows', () => {
  // Known items missed one answer in four, unknown ones almost never guessed: an agent's tool calls.
  const slips: RepeatUnit[] = Array.from({ length: 60 }, (_, i) =>
    i % 2 ? { samples: 3, passes: [3, 2, 2, 3][i % 4], first: i % 8 !== 3 } : { samples: 3, passes: 0, first: false },
  );

  it('is read as missing, not guessing', () => {
    const mix = noiseMixture(slips);
    const mean = (f: (l: { miss: number; guess: number }) => number) => mix.reduce((a, l) => a + l.weight * f(l), 0);
    expect(mean((l) => l.miss)).toBeGreaterThan(0.08);
    expect(mean((l) => l.miss)).toBeGreaterThan(2 * mean((l) => l.guess));
  });

  it('has its gains believed: one flip rate for both took them for flukes (agentic-noisy stalled at 0.31)', () => {
    const items: ItemTallies[] = [
      ...Array.from({ length: 6 }, (_, i) => ({ itemId: `g${i}`, ref: t(0, 3), cand: t(2, 3) })),
      ...Array.from({ length: 12 }, (_, i) => ({
        itemId: `k${i}`,
        ref: t(i % 3 ? 0 : 2, 3),
        cand: t(i % 3 ? 0 : 2, 3),
      })),
    ];
    const flips = slips.reduce((a, u) => a + Math.min(u.passes, u.samples - u.passes), 0) / (slips.length * 3);
    const own = posteriorPerItem(items, noiseMixture(slips), prior, CHANGE_LEVELS);
    const one = posteriorOverNoise(items, [{ miss: flips, guess: flips, weight: 1 }], prior, CHANGE_LEVELS);
    expect(own.pBetter).toBeGreaterThan(0.95);
    expect(own.pBetter).toBeGreaterThan(one.pBetter);
  });
});

describe('how many items an edit changes', () => {
  const levels = [{ miss: 0.1, guess: 0.05, weight: 1 }];

  it('a sweeping candidate is read as one: gains all one way raise the share an edit changes', () => {
    // 15 of 24 items fixed, 9 kept, one sample each on a target that flips now and then.
    const items: ItemTallies[] = [
      ...Array.from({ length: 15 }, (_, i) => ({ itemId: `g${i}`, ref: t(0, 1), cand: t(1, 1) })),
      ...Array.from({ length: 9 }, (_, i) => ({ itemId: `k${i}`, ref: t(1, 1), cand: t(1, 1) })),
    ];
    const noisier = [{ miss: 0.2, guess: 0.1, weight: 1 }];
    const fixed = posteriorOverNoise(items, noisier, prior);
    const mixed = posteriorOverNoise(items, noisier, prior, CHANGE_LEVELS);
    expect(mixed.candKnown).toBeGreaterThan(fixed.candKnown + 0.05);
    expect(mixed.gain).toBeGreaterThan(fixed.gain + 1);
  });

  it('before any sample, better and worse are equally likely at every share of change', () => {
    const none: ItemTallies[] = Array.from({ length: 10 }, (_, i) => ({
      itemId: `i${i}`,
      ref: t(0, 0),
      cand: t(0, 0),
    }));
    const v = posteriorOverNoise(none, levels, prior, CHANGE_LEVELS);
    expect(v.pBetter).toBeCloseTo(v.pWorse, 9);
  });
});
