// Posterior verdicts (issue #32): each item's chance of having been gained, lost or kept under the
// latent model, the distribution of their sum, and the properties a gate relies on — a prior that
// favours neither side, symmetry, more evidence for a side never weakening it, and an exact sum.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  atLeast,
  atMost,
  changeSum,
  itemChange,
  knownPrior,
  noiseLevels,
  noiseOf,
  pooledBetter,
  posteriorOverNoise,
  posteriorVerdict,
  withNeutral,
  CHANGE_LEVELS,
  NEUTRAL_PRIOR,
  type ItemTallies,
  type Tally,
} from '../../../src/core/verdict/paired-posterior';

const t = (passes: number, n: number): Tally => ({ passes, n });
const none = t(0, 0);
const prior = { known: 0.5, change: 0.1 };

describe('one item', () => {
  it('before any sample, a gain is exactly as likely as a loss, whatever the reference knows', () => {
    for (const known of [0.1, 0.37, 0.5, 0.9]) {
      const x = itemChange(none, none, noiseOf(0.1), { known, change: 0.1 });
      expect(x.up).toBeCloseTo(x.down, 12);
      expect(x.up + x.down).toBeCloseTo(0.1, 12);
    }
  });

  it('a target that never slips: one pass against one fail is a gain', () => {
    const x = itemChange(t(0, 1), t(1, 1), noiseOf(0.001), prior);
    expect(x.up).toBeGreaterThan(0.98);
    expect(x.down).toBeLessThan(1e-3);
  });

  it('a noisy target: one disagreement is doubt; three answers each way settle it', () => {
    const once = itemChange(t(0, 1), t(1, 1), noiseOf(0.1), prior);
    const thrice = itemChange(t(0, 3), t(3, 3), noiseOf(0.1), prior);
    expect(once.up).toBeLessThan(0.6);
    expect(thrice.up).toBeGreaterThan(0.95);
  });

  it('agreeing answers say the item was kept', () => {
    const x = itemChange(t(1, 1), t(1, 1), noiseOf(0.05), prior);
    expect(x.up + x.down).toBeLessThan(0.02);
    expect(x.refKnown).toBeGreaterThan(0.9);
  });

  it('is symmetric: swapping the sides swaps gained and lost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        (a, b, c, d) => {
          const r = t(Math.min(a, b), b);
          const k = t(Math.min(c, d), d);
          const x = itemChange(r, k, noiseOf(0.1), prior);
          const y = itemChange(k, r, noiseOf(0.1), prior);
          expect(x.up).toBeCloseTo(y.down, 10);
          expect(x.down).toBeCloseTo(y.up, 10);
        },
      ),
    );
  });

  it('one more pass for the candidate never makes a gain less likely', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.double({ min: 0.001, max: 0.3, noNaN: true }),
        (rp, rn, cp, eps) => {
          const r = t(Math.min(rp, rn), rn);
          const c = t(cp, cp + 1);
          const more = t(cp + 1, cp + 2);
          expect(itemChange(r, more, noiseOf(eps), prior).up).toBeGreaterThanOrEqual(
            itemChange(r, c, noiseOf(eps), prior).up - 1e-12,
          );
        },
      ),
    );
  });
});

describe('the sum of changes', () => {
  it('is the exact convolution of the items', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(fc.double({ min: 0, max: 0.5, noNaN: true }), fc.double({ min: 0, max: 0.5, noNaN: true }))
            .map(([up, down]) => ({ up, down })),
          { minLength: 1, maxLength: 6 },
        ),
        (items) => {
          // Brute force over every outcome of every item.
          const brute = new Map<number, number>();
          const walk = (i: number, sum: number, p: number) => {
            if (i === items.length) return void brute.set(sum, (brute.get(sum) ?? 0) + p);
            const { up, down } = items[i];
            walk(i + 1, sum + 1, p * up);
            walk(i + 1, sum - 1, p * down);
            walk(i + 1, sum, p * (1 - up - down));
          };
          walk(0, 0, 1);
          const s = changeSum(items);
          for (const [k, p] of brute) if (p > 1e-12) expect(atLeast(s, k) - atLeast(s, k + 1)).toBeCloseTo(p, 9);
          expect(atLeast(s, -items.length)).toBeCloseTo(1, 9);
          expect(atMost(s, items.length)).toBeCloseTo(1, 9);
        },
      ),
    );
  });

  it('stays short over many certain items', () => {
    const s = changeSum(Array.from({ length: 5000 }, () => ({ up: 0, down: 0 })));
    expect(s.pmf.length).toBe(1);
    expect(atLeast(s, 0)).toBe(1);
  });
});

describe('the verdict', () => {
  const noise = noiseOf(0.08);
  const items = (pairs: [Tally, Tally][]) => pairs.map(([ref, cand], i) => ({ itemId: `i${i}`, ref, cand }));

  it('two skills that answered alike favour neither', () => {
    const v = posteriorVerdict(
      items(Array.from({ length: 20 }, (_, i): [Tally, Tally] => [t(i % 2, 1), t(i % 2, 1)])),
      noise,
      prior,
    );
    expect(v.pBetter).toBeCloseTo(v.pWorse, 10);
    expect(v.pBetter).toBeLessThan(0.5);
    expect(v.improved).toEqual([]);
    expect(v.regressed).toEqual([]);
  });

  it('three settled gains and nothing lost: surely better', () => {
    const pairs: [Tally, Tally][] = [
      ...Array.from({ length: 3 }, (): [Tally, Tally] => [t(0, 3), t(3, 3)]),
      ...Array.from({ length: 15 }, (_, i): [Tally, Tally] => [t(i % 2, 1), t(i % 2, 1)]),
    ];
    const v = posteriorVerdict(items(pairs), noise, prior);
    expect(v.pBetter).toBeGreaterThan(0.95);
    expect(v.improved).toEqual(['i0', 'i1', 'i2']);
    expect(v.candKnown).toBeGreaterThan(v.refKnown);
  });

  it('an item not scored for the candidate is as likely gained as lost, whatever the reference did', () => {
    for (const ref of [t(1, 1), t(0, 1), t(0, 3)]) {
      const v = posteriorVerdict(items([[ref, none]]), noise, prior);
      expect(v.items[0].up).toBeCloseTo(v.items[0].down, 12);
      expect(v.candKnown).toBeCloseTo(v.refKnown, 12);
    }
    // The change's mass is the prior's: half of the change share on each side.
    const v = posteriorVerdict(items([[t(1, 1), none]]), noise, prior);
    expect(v.items[0].up + v.items[0].down).toBeCloseTo(0.1, 9);
  });

  it('a batch the reference mostly fails is not won before the candidate answers once (a screen passed one that lost all)', () => {
    const unseen: [Tally, Tally][] = Array.from({ length: 20 }, (_, i) => [t(i < 16 ? 0 : 1, 1), none]);
    const v = posteriorVerdict(items(unseen), noise, prior);
    expect(v.pBetter).toBeCloseTo(v.pWorse, 12);
    expect(v.gain).toBeCloseTo(0, 12);
  });

  it('the known share before samples: the pass rate with the noise taken out', () => {
    expect(knownPrior(9, 18, { miss: 0.1, guess: 0.1 })).toBeCloseTo(0.5, 10);
    expect(knownPrior(0, 18, { miss: 0.1, guess: 0.1 })).toBe(0.02);
    expect(knownPrior(3, 0, { miss: 0.1, guess: 0.1 })).toBe(0.5);
  });
});

describe('the noise a verdict cannot rule out (issue #32)', () => {
  const known = () => prior;
  // One item gained once (a fail, then a pass), the rest answered alike: a steady target's gain, a noisy one's fluke.
  const flukeOrGain: ItemTallies[] = [
    { itemId: 'x', ref: t(0, 1), cand: t(1, 1) },
    ...Array.from({ length: 23 }, (_, i) => ({ itemId: `i${i}`, ref: t(i % 2, 1), cand: t(i % 2, 1) })),
  ];

  it('weighs each flip rate by the run’s tally: a long agreeing tally leaves only low ones, a short one keeps high ones', () => {
    const mass = (levels: { miss: number; weight: number }[]) =>
      levels.filter((l) => l.miss >= 0.07).reduce((a, l) => a + l.weight, 0);
    const sum = (levels: { weight: number }[]) => levels.reduce((a, l) => a + l.weight, 0);
    expect(sum(noiseLevels({ minority: 0, samples: 32 }))).toBeCloseTo(1, 5);
    expect(mass(noiseLevels({ minority: 0, samples: 32 }))).toBeGreaterThan(0.02);
    expect(mass(noiseLevels({ minority: 0, samples: 2000 }))).toBeLessThan(1e-6);
    expect(mass(noiseLevels({ minority: 20, samples: 200 }))).toBeGreaterThan(0.5);
  });

  it('a verdict’s own flips raise the noise it assumes: a lone flip elsewhere reads as less of a gain', () => {
    const levels = noiseLevels({ minority: 0, samples: 32 });
    // Six items each side answered both ways: this target flips more than the run's tally said.
    const flippy = flukeOrGain.map((x, i) => (i > 0 && i <= 6 ? { ...x, ref: t(1, 2), cand: t(1, 2) } : x));
    const upOf = (items: ItemTallies[]) => posteriorOverNoise(items, levels, known).items[0].up;
    expect(upOf(flippy)).toBeLessThan(upOf(flukeOrGain) - 0.05);
    // A single level cannot learn it: the lone flip's chance of being a gain stays where it was.
    const one = [{ miss: 0.015, guess: 0.015, weight: 1 }];
    expect(posteriorOverNoise(flippy, one, known).items[0].up).toBeCloseTo(
      posteriorOverNoise(flukeOrGain, one, known).items[0].up,
      12,
    );
  });

  it('a repeat that confirms the gain makes it surer; one that does not, less sure', () => {
    const levels = noiseLevels({ minority: 0, samples: 32 });
    const again = (cand: Tally) =>
      posteriorOverNoise([{ ...flukeOrGain[0], ref: t(0, 2), cand }, ...flukeOrGain.slice(1)], levels, known).pBetter;
    const once = posteriorOverNoise(flukeOrGain, levels, known).pBetter;
    expect(again(t(2, 2))).toBeGreaterThan(once);
    expect(again(t(1, 2))).toBeLessThan(once);
  });

  it('one level is the plain verdict', () => {
    const one = posteriorOverNoise(flukeOrGain, [{ miss: 0.05, guess: 0.05, weight: 1 }], known);
    expect(one.pBetter).toBeCloseTo(posteriorVerdict(flukeOrGain, noiseOf(0.05), prior).pBetter, 12);
  });

  it('pooled evidence: items of two verdicts summed into one chance of being better', () => {
    const gain = { up: 0.9, down: 0.01 };
    const still = { up: 0.05, down: 0.05 };
    expect(pooledBetter([gain, gain])).toBeGreaterThan(pooledBetter([gain]));
    expect(pooledBetter([gain, ...Array(20).fill(still)])).toBeLessThan(pooledBetter([gain]));
    expect(pooledBetter([gain, { up: 0.01, down: 0.9 }])).toBeLessThan(0.5);
  });
});

describe('a candidate that may change nothing (issue #40)', () => {
  const known = () => prior;
  // A target that flips one answer in ten, as the run's repeats said.
  const levels = noiseLevels({ minority: 10, samples: 100 });
  const alike = (n: number): ItemTallies[] =>
    Array.from({ length: n }, (_, i) => ({ itemId: `i${i}`, ref: t(i % 2 ? 3 : 0, 3), cand: t(i % 2 ? 3 : 0, 3) }));
  const flip = (itemId: string): ItemTallies => ({ itemId, ref: t(0, 1), cand: t(1, 1) });
  const gained = (itemId: string): ItemTallies => ({ itemId, ref: t(0, 3), cand: t(3, 3) });
  const pBetter = (items: ItemTallies[], neutral: boolean) =>
    posteriorOverNoise(items, levels, known, neutral ? withNeutral(CHANGE_LEVELS) : CHANGE_LEVELS).pBetter;

  it('keeps the prior whole: the neutral share, and the change levels scaled to the rest', () => {
    const levels = withNeutral(CHANGE_LEVELS);
    expect(levels[0]).toEqual({ change: 0, weight: NEUTRAL_PRIOR });
    expect(levels.reduce((a, l) => a + l.weight, 0)).toBeCloseTo(1, 12);
  });

  it('reads a rewording’s lone flips as noise: two single answers that flipped up are not near even odds of better', () => {
    const flukes = [flip('a'), flip('b'), ...alike(18)];
    expect(pBetter(flukes, false)).toBeGreaterThan(0.5);
    expect(pBetter(flukes, true)).toBeLessThan(0.3);
  });

  it('leaves a real gain sure: settled gains rule "nothing changed" out', () => {
    expect(pBetter([gained('a'), gained('b'), gained('c'), ...alike(17)], true)).toBeGreaterThan(0.99);
    expect(pBetter([gained('a'), ...alike(19)], true)).toBeGreaterThan(0.95);
  });
});
