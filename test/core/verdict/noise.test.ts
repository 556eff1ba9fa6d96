// How stochastic the target is, from the run's own repeats (issue #19): the flip tally, its
// cautious upper bound, and the votes an item needs before its outcome counts as settled.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { addTallies, addUnit, detectableGainItems, flipRate, flipRateUpper, NO_FLIPS, noisePolicy, resamples, settleMargin } from '../../../src/core/verdict/noise';

describe('flip tally', () => {
  it('counts the minority samples of each unit; one sample says nothing', () => {
    let t = addUnit(NO_FLIPS, [true]);
    expect(t).toEqual(NO_FLIPS);
    t = addUnit(t, [true, true, false]);
    t = addUnit(t, [false, false]);
    expect(t).toEqual({ units: 2, samples: 5, minority: 1 });
    expect(flipRate(t)).toBeCloseTo(0.2, 12);
    expect(addTallies(t, t)).toEqual({ units: 4, samples: 10, minority: 2 });
  });

  it('bounds the flip rate from above, cautiously, and tighter with more evidence (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 400 }), (n, k) => {
        const t = { units: n, samples: n, minority: Math.min(k, n) };
        const u = flipRateUpper(t);
        expect(u).toBeGreaterThanOrEqual(Math.min(0.5, flipRate(t)) - 1e-12);
        expect(u).toBeLessThanOrEqual(0.5);
        const more = { units: 2 * n, samples: 2 * n, minority: 2 * t.minority };
        expect(flipRateUpper(more)).toBeLessThanOrEqual(u + 1e-12);
      }),
    );
  });

  it('says anything may be noise before any evidence, and little is once 32 repeated samples all agree', () => {
    expect(flipRateUpper(NO_FLIPS)).toBe(0.5);
    expect(flipRateUpper({ units: 8, samples: 16, minority: 0 })).toBeCloseTo(0.093, 2);
    expect(flipRateUpper({ units: 16, samples: 32, minority: 0 })).toBeLessThan(0.05);
  });
});

describe('settle margin', () => {
  it('is one vote for a deterministic target, more as the flip rate grows, unbounded at ½', () => {
    expect(settleMargin(0)).toBe(1);
    expect(settleMargin(0.04)).toBe(1);
    expect(settleMargin(0.1)).toBe(2);
    expect(settleMargin(0.2)).toBe(3);
    expect(settleMargin(0.5)).toBe(Infinity);
  });

  it('makes the posterior odds of a settled outcome at least 19 : 1 (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.45, noNaN: true }), (eps) => {
        const m = settleMargin(eps);
        expect(((1 - eps) / eps) ** m).toBeGreaterThanOrEqual(19 - 1e-6);
        if (m > 1) expect(((1 - eps) / eps) ** (m - 1)).toBeLessThan(19);
      }),
    );
  });

  it('re-samples only when one answer is not enough and more samples are allowed', () => {
    const deterministic = noisePolicy({ units: 16, samples: 32, minority: 0 }, 4);
    expect(deterministic.margin).toBe(1);
    expect(resamples(deterministic)).toBe(false);
    const noisy = noisePolicy({ units: 16, samples: 32, minority: 3 }, 4);
    expect(noisy.margin).toBeGreaterThan(1);
    expect(resamples(noisy)).toBe(true);
    expect(resamples(noisePolicy({ units: 16, samples: 32, minority: 3 }, 1))).toBe(false);
  });
});

describe('detectable gain', () => {
  it('is one item for a deterministic target and several on a small, noisy validation split', () => {
    expect(detectableGainItems(18, 0)).toBe(1);
    expect(detectableGainItems(16, 0.1)).toBe(3);
    expect(detectableGainItems(200, 0.1)).toBe(10);
    expect(detectableGainItems(0, 0.1)).toBe(0);
  });
});
