// pass^k without bias from n ≥ k tries per item (issue #43): C(c,k)/C(n,k) averaged over items,
// beside pass^1 and the share of items whose tries disagree.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { itemFlipRate, itemPassAtK, passAtK, passKOf, type ItemTries } from '../../../src/core/verdict/pass-k';

const binomial = (n: number, k: number): number => {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
};

/** Items of 1..8 tries, each with some passes. */
const items = (minTries = 1) =>
  fc.array(
    fc
      .integer({ min: minTries, max: 8 })
      .chain((n) => fc.record({ n: fc.constant(n), passes: fc.integer({ min: 0, max: n }) })),
    { minLength: 1, maxLength: 30 },
  );

describe('pass^k', () => {
  it('is C(c,k)/C(n,k) per item, averaged over items', () => {
    expect(itemPassAtK({ n: 5, passes: 4 }, 3)).toBeCloseTo(binomial(4, 3) / binomial(5, 3), 12); // 0.4
    expect(itemPassAtK({ n: 3, passes: 2 }, 3)).toBe(0);
    expect(
      passAtK(
        [
          { n: 3, passes: 3 },
          { n: 3, passes: 2 },
          { n: 3, passes: 0 },
        ],
        3,
      ),
    ).toBeCloseTo(1 / 3, 12);
    expect(
      passAtK(
        [
          { n: 3, passes: 3 },
          { n: 3, passes: 2 },
          { n: 3, passes: 0 },
        ],
        2,
      ),
    ).toBeCloseTo((1 + 1 / 3) / 3, 12);
  });

  it('is unbiased: its mean over every draw of n tries is p^k for an item passing with chance p', () => {
    // E[C(c,k)/C(n,k)] over c ~ Binomial(n, p) equals p^k exactly.
    for (const [n, k, p] of [
      [5, 3, 0.7],
      [8, 2, 0.35],
      [4, 4, 0.9],
    ] as const) {
      let mean = 0;
      for (let c = 0; c <= n; c++)
        mean += binomial(n, c) * p ** c * (1 - p) ** (n - c) * itemPassAtK({ n, passes: c }, k);
      expect(mean).toBeCloseTo(p ** k, 12);
    }
  });

  it('refuses an item with fewer tries than k, and leaves such items out of the mean', () => {
    expect(() => itemPassAtK({ n: 2, passes: 2 }, 3)).toThrow(/at least 3 tries/);
    expect(passAtK([{ n: 2, passes: 2 }], 3)).toBeNull();
    expect(
      passAtK(
        [
          { n: 2, passes: 2 },
          { n: 3, passes: 0 },
        ],
        3,
      ),
    ).toBe(0);
  });

  it('property: pass^1 is the mean pass rate per item', () => {
    fc.assert(
      fc.property(items(), (xs) => {
        const mean = xs.reduce((s, t) => s + t.passes / t.n, 0) / xs.length;
        expect(passAtK(xs, 1)).toBeCloseTo(mean, 12);
      }),
    );
  });

  it('property: non-increasing in k, 1 when every try passed, 0 when an item has fewer passes than k', () => {
    fc.assert(
      fc.property(items(8), fc.integer({ min: 1, max: 7 }), (xs, k) => {
        expect(passAtK(xs, k + 1)!).toBeLessThanOrEqual(passAtK(xs, k)! + 1e-12);
        expect(
          passAtK(
            xs.map((t) => ({ ...t, passes: t.n })),
            k,
          ),
        ).toBe(1);
        for (const t of xs) if (t.passes < k) expect(itemPassAtK(t, k)).toBe(0);
        expect(passAtK(xs, k)!).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('property: pass^k lies between the share of items that always passed and pass^1', () => {
    fc.assert(
      fc.property(items(3), (xs) => {
        const always = xs.filter((t) => t.passes === t.n).length / xs.length;
        expect(passAtK(xs, 3)!).toBeGreaterThanOrEqual(always - 1e-12);
        expect(passAtK(xs, 3)!).toBeLessThanOrEqual(passAtK(xs, 1)! + 1e-12);
      }),
    );
  });
});

describe('item flip rate', () => {
  it('counts items whose tries disagree among items tried at least twice', () => {
    const xs: ItemTries[] = [
      { n: 3, passes: 3 },
      { n: 3, passes: 1 },
      { n: 3, passes: 0 },
      { n: 1, passes: 1 },
    ];
    expect(itemFlipRate(xs)).toBeCloseTo(1 / 3, 12);
    expect(itemFlipRate([{ n: 1, passes: 0 }])).toBeNull();
  });
});

describe('passKOf', () => {
  it('puts pass^1 and pass^k over the same items and says how many errors left short', () => {
    const r = passKOf(
      [
        { n: 3, passes: 3 },
        { n: 3, passes: 1 },
        { n: 2, passes: 2 }, // an errored try left it short of k
        { n: 0, passes: 0 },
      ],
      3,
    )!;
    expect(r).toEqual({ k: 3, passAt1: (1 + 1 / 3) / 2, passAtK: 0.5, flipRate: 0.5, items: 2, short: 1 });
    expect(passKOf([{ n: 1, passes: 1 }], 2)).toBeNull();
  });

  it('property: with k = 1, pass^k equals pass^1', () => {
    fc.assert(
      fc.property(items(), (xs) => {
        const r = passKOf(xs, 1)!;
        expect(r.passAtK).toBeCloseTo(r.passAt1, 12);
        expect(r.short).toBe(0);
      }),
    );
  });
});
