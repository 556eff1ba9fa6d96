// Section credit's estimator (issue #43 item 4): balanced random masks, per-item fits, an interval
// over items — checked on worlds whose section effects are planted and so known.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { creditPlan, fullRank, maskDesign, minMasks } from '../../../src/core/verdict/section-masks';
import { leastSquares, sectionEffects, type MaskedScore } from '../../../src/core/verdict/section-effects';
import { SeededRandom } from '../../../src/core/basics/random';

/** Every item scored under every mask, its value a function of the mask. */
function scored(design: boolean[][], items: number, value: (item: number, kept: boolean[], mask: number) => number) {
  const out: MaskedScore[] = [];
  design.forEach((kept, mask) => {
    for (let i = 0; i < items; i++) out.push({ mask, itemId: `i${i}`, value: value(i, kept, mask) });
  });
  return out;
}

describe('mask design', () => {
  it('keeps each section in half the masks, pairs each mask with its complement, tells sections apart, is seeded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 6 }), fc.integer(), (s, extra, seed) => {
        const m = minMasks(s) + 2 * extra;
        const d = maskDesign(s, m, seed);
        expect(d).toHaveLength(m);
        for (let c = 0; c < s; c++) {
          const kept = d.filter((row) => row[c]).length;
          expect(Math.abs(kept - m / 2)).toBeLessThanOrEqual(0.5);
        }
        for (let p = 0; p < m; p += 2) expect(d[p + 1]).toEqual(d[p].map((k) => !k));
        expect(fullRank(d)).toBe(true);
        expect(maskDesign(s, m, seed)).toEqual(d);
      }),
      { numRuns: 60 },
    );
  });

  it('fits the budget: every item when masks allow, else the fewest masks on fewer items, else nothing', () => {
    expect(creditPlan(3, 20, 400)).toEqual({ masks: 20, items: 20, rollouts: 400 });
    expect(creditPlan(3, 20, 60)).toEqual({ masks: 8, items: 7, rollouts: 56 });
    expect(creditPlan(3, 20, 15)).toBeNull();
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 0, max: 2000 }),
        (s, n, budget) => {
          const p = creditPlan(s, n, budget);
          if (!p) {
            expect(budget).toBeLessThan(2 * minMasks(s));
            return;
          }
          expect(p.rollouts).toBeLessThanOrEqual(budget);
          expect(p.masks).toBeGreaterThanOrEqual(minMasks(s));
          expect(p.items).toBeLessThanOrEqual(n);
        },
      ),
    );
  });
});

describe('section effects', () => {
  it('solves least squares exactly and refuses a singular system', () => {
    const [a, b] = leastSquares(
      [
        [1, 0],
        [1, 1],
        [1, 1],
      ],
      [2, 5, 5],
    )!;
    expect(a).toBeCloseTo(2, 12);
    expect(b).toBeCloseTo(3, 12);
    expect(
      leastSquares(
        [
          [1, 1],
          [1, 1],
        ],
        [1, 2],
      ),
    ).toBeNull();
  });

  it('recovers planted additive effects exactly, item by item different, inside their intervals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 2, max: 12 }), fc.integer(), (s, items, seed) => {
        const rng = new SeededRandom(seed);
        // Item i gains planted[i][j] from section j: some help an item, others hurt it.
        const planted = Array.from({ length: items }, () => Array.from({ length: s }, () => rng.nextFloat() - 0.5));
        const d = maskDesign(s, minMasks(s) + 2, seed);
        const r = sectionEffects(
          d,
          scored(d, items, (i, kept) => 0.3 + kept.reduce((a, k, j) => a + (k ? planted[i][j] : 0), 0)),
          { seed },
        )!;
        for (let j = 0; j < s; j++) {
          const truth = planted.reduce((a, p) => a + p[j], 0) / items;
          expect(r.effects[j].effect).toBeCloseTo(truth, 9);
          expect(r.effects[j].low).toBeLessThanOrEqual(truth + 1e-9);
          expect(r.effects[j].high).toBeGreaterThanOrEqual(truth - 1e-9);
        }
        expect(r.base).toBeCloseTo(0.3, 9);
        expect(r.items).toBe(items);
      }),
      { numRuns: 80 },
    );
  });

  it('lets no interaction of two sections leak into a third: each effect is its average over the others', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 5 }), fc.integer(), (s, seed) => {
        const rng = new SeededRandom(seed);
        const main = Array.from({ length: s }, () => rng.nextFloat() - 0.5);
        const pair = rng.nextFloat() - 0.5; // sections 0 and 1 together add this more
        const d = maskDesign(s, minMasks(s) + 4, seed);
        const value = (_: number, kept: boolean[]) =>
          kept.reduce((a, k, j) => a + (k ? main[j] : 0), 0) + (kept[0] && kept[1] ? pair : 0);
        const r = sectionEffects(d, scored(d, 3, value), { seed, resamples: 50 })!;
        // Averaged over the other's mix (kept half the time): each of the pair gains half the interaction.
        expect(r.effects[0].effect).toBeCloseTo(main[0] + pair / 2, 9);
        expect(r.effects[1].effect).toBeCloseTo(main[1] + pair / 2, 9);
        for (let j = 2; j < s; j++) expect(r.effects[j].effect).toBeCloseTo(main[j], 9);
      }),
      { numRuns: 60 },
    );
  });

  it('covers planted effects on a noisy pass/fail target at about the interval’s level', () => {
    // Three sections: helps (+0.4), harms (−0.3), neutral (0); each item passes by a coin of that chance.
    const planted = [0.4, -0.3, 0];
    let covered = 0;
    let trials = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rng = new SeededRandom(seed * 7919);
      const d = maskDesign(3, 16, seed);
      const r = sectionEffects(
        d,
        scored(d, 30, (_, kept) => {
          const p = 0.4 + kept.reduce((a, k, j) => a + (k ? planted[j] : 0), 0);
          return rng.nextFloat() < p ? 1 : 0;
        }),
        { seed, resamples: 500 },
      )!;
      r.effects.forEach((e, j) => {
        trials++;
        if (e.low <= planted[j] && planted[j] <= e.high) covered++;
      });
    }
    expect(covered / trials).toBeGreaterThan(0.85);
  });

  it('leaves out items whose errored rollouts leave too few masks, and says how many', () => {
    const d = maskDesign(2, 6, 3);
    const all = scored(d, 4, (_, kept) => (kept[0] ? 1 : 0));
    const r = sectionEffects(
      d,
      all.filter((x) => !(x.itemId === 'i0' && x.mask > 1)),
      { seed: 1 },
    )!;
    expect(r).toMatchObject({ items: 3, leftOut: 1 });
    expect(r.effects[0].effect).toBeCloseTo(1, 9);
    expect(
      sectionEffects(
        d,
        all.filter((x) => x.itemId === 'i1'),
        { seed: 1 },
      ),
    ).toBeNull();
  });
});
