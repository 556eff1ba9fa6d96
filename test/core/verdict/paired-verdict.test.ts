// Noise-aware paired verdicts (issue #19): item values from settled votes, the discordant pairs,
// the exact sign test, and the reduction to the plain item-by-item comparison with one sample.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hardValue, isSettled, itemValue, maxGainLeft, pairedVerdict, signTestPValue, type ItemPair, type Sample } from '../../../src/core/verdict/paired-verdict';
import { compareOutcomes } from '../../../src/core/verdict/credit';

const s = (...hard: number[]): Sample[] => hard.map((h) => ({ hard: h, soft: h }));
const pair = (id: string, ref: Sample[], cand: Sample[]): ItemPair => ({ itemId: id, ref, cand });

describe('item values', () => {
  it('a settled side counts as its majority; a split one as its mean', () => {
    expect(isSettled(s(1, 1, 0), 1)).toBe(true);
    expect(isSettled(s(1, 1, 0), 2)).toBe(false);
    expect(hardValue(s(1, 1, 1, 0), 2)).toBe(1);
    expect(hardValue(s(1, 0), 2)).toBe(0.5);
    expect(hardValue(s(0, 0, 0, 1), 2)).toBe(0);
    expect(itemValue(s(1, 0), { metric: 'soft', margin: 2 })).toBe(0.5);
    expect(itemValue([{ hard: 1, soft: 0.5 }, { hard: 1, soft: 1 }], { metric: 'mixed', mixedWeight: 0.5, margin: 2 })).toBeCloseTo(0.875, 12);
  });

  it('keeps fractional hard scores of the settled side', () => {
    expect(hardValue(s(0.5, 0.5, 0), 1)).toBe(0.5);
  });
});

describe('paired verdict', () => {
  it('counts wins and losses after settling, with the exact one-sided sign test', () => {
    const v = pairedVerdict(
      [
        pair('a', s(0), s(1)),
        pair('b', s(1, 1, 1), s(0, 1, 1, 1)), // a miss of the candidate settled as a pass: no change
        pair('c', s(1, 1), s(0, 0, 0)),
        pair('d', s(0), s(1)),
        pair('e', s(1), []), // errored for the candidate: left out
      ],
      { metric: 'hard', margin: 2 },
    );
    expect(v).toMatchObject({ n: 4, improved: ['a', 'd'], regressed: ['c'], resampled: 2, unsettled: 0 });
    expect(v.gain).toBeCloseTo(1 / 4, 12);
    expect(v.pValue).toBeCloseTo(0.5, 12); // P(X ≥ 2 | n = 3, ½)
  });

  it('with one sample per item and a margin of 1 is the plain item-by-item comparison (property)', () => {
    const outcomes = fc.array(fc.tuple(fc.constantFrom(0, 1), fc.constantFrom(0, 1)), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(outcomes, (xs) => {
        const pairs = xs.map(([a, b], i) => pair(`i${i}`, s(a), s(b)));
        const v = pairedVerdict(pairs, { metric: 'hard', margin: 1 });
        const d = compareOutcomes(xs.map(([a], i) => ({ itemId: `i${i}`, hard: a, soft: a })), xs.map(([, b], i) => ({ itemId: `i${i}`, hard: b, soft: b })));
        expect(v.improved).toEqual(d.improved);
        expect(v.regressed).toEqual(d.regressed);
        expect(v.gain).toBeCloseTo(d.after.hard - d.before.hard, 12);
      }),
    );
  });

  it('the sign test is exact and symmetric', () => {
    expect(signTestPValue(0, 0)).toBe(1);
    expect(signTestPValue(5, 0)).toBeCloseTo(1 / 32, 12);
    expect(signTestPValue(3, 3)).toBeCloseTo(0.65625, 12);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }), (w, l) => {
        const p = signTestPValue(w, l);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        if (w + l > 0 && w > 0) expect(p + signTestPValue(l + 1, w - 1)).toBeCloseTo(1, 9);
      }),
    );
  });

  it('bounds what unscored items can still add', () => {
    expect(maxGainLeft([1, 0, 0.5])).toBe(1.5);
  });
});
