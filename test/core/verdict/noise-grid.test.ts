// Misses and guesses weighed apart (issue #32): a target that slips on tasks it knows (an agent's
// several tool calls) but rarely passes one it does not must not be read as flipping both ways —
// that model took its real gains for flukes and stalled the agentic-noisy world at 0.31.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  meanNoise,
  noiseGrid,
  posteriorOverNoise,
  type ItemTallies,
  type RepeatUnit,
} from '../../../src/core/verdict/paired-posterior';

/** Units drawn as a target with these rates answers them: half known, half not, first sample kept. */
function unitsOf(miss: number, guess: number, count: number): RepeatUnit[] {
  // Deterministic fractions, not random draws: the test states what the grid must read from them.
  const out: RepeatUnit[] = [];
  for (let i = 0; i < count; i++) {
    const known = i % 2 === 0;
    const rate = known ? 1 - miss : guess;
    const k = Math.floor(i / 2);
    const passes = [0, 1, 2].map((j) => ((k * 3 + j) * 0.618) % 1 < rate);
    out.push({ samples: 3, passes: passes.filter(Boolean).length, first: passes[0] });
  }
  return out;
}

describe('noise grid', () => {
  it('weights sum to one and every pair keeps known answered right more often', () => {
    const levels = noiseGrid(unitsOf(0.2, 0.02, 40));
    expect(levels.reduce((a, l) => a + l.weight, 0)).toBeCloseTo(1, 4);
    for (const l of levels) expect(l.miss + l.guess).toBeLessThan(0.6);
  });

  it('reads a slipping target as one that misses, not one that guesses', () => {
    const m = meanNoise(noiseGrid(unitsOf(0.25, 0.01, 60)));
    expect(m.miss).toBeGreaterThan(0.12);
    expect(m.guess).toBeLessThan(0.06);
    expect(m.miss).toBeGreaterThan(2 * m.guess);
  });

  it('a steady target: long agreeing repeats leave only low rates', () => {
    const steady = Array.from({ length: 40 }, (_, i): RepeatUnit => ({
      samples: 3,
      passes: i % 2 ? 3 : 0,
      first: i % 2 === 1,
    }));
    const m = meanNoise(noiseGrid(steady));
    expect(m.miss).toBeLessThan(0.03);
    expect(m.guess).toBeLessThan(0.03);
  });

  it('no repeats: every pair keeps weight (nothing is known of the noise yet)', () => {
    expect(noiseGrid([]).length).toBeGreaterThan(50);
  });

  it('repeats that disagree with their first answer make the target look noisier than agreeing ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        (agree, flip, first) => {
          const unit = (later: number): RepeatUnit => ({ samples: 3, passes: (first ? 1 : 0) + later, first });
          const same = first ? 2 : 0;
          const calm = Array<RepeatUnit>(agree + flip).fill(unit(same));
          const flippy = [...Array<RepeatUnit>(agree).fill(unit(same)), ...Array<RepeatUnit>(flip).fill(unit(1))];
          const total = (u: RepeatUnit[]) => {
            const m = meanNoise(noiseGrid(u));
            return m.miss + m.guess;
          };
          expect(total(flippy)).toBeGreaterThan(total(calm));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a gain on an agent that slips is believed: misses and guesses apart, the verdict is surer', () => {
    const t = (passes: number, n: number) => ({ passes, n });
    // Six items the candidate passes twice of three where the reference failed all; the rest alike.
    const items: ItemTallies[] = [
      ...Array.from({ length: 6 }, (_, i) => ({ itemId: `g${i}`, ref: t(0, 3), cand: t(2, 3) })),
      ...Array.from({ length: 12 }, (_, i) => ({
        itemId: `k${i}`,
        ref: t(i % 3 ? 0 : 2, 3),
        cand: t(i % 3 ? 0 : 2, 3),
      })),
    ];
    const prior = () => ({ known: 0.3, change: 0.1 });
    const slipping = unitsOf(0.3, 0.01, 60);
    const apart = posteriorOverNoise(items, noiseGrid(slipping), prior);
    const flip = meanNoise(noiseGrid(slipping));
    const mixed = (flip.miss + flip.guess) / 2;
    const oneRate = posteriorOverNoise(items, [{ miss: mixed, guess: mixed, weight: 1 }], prior);
    expect(apart.pBetter).toBeGreaterThan(0.95);
    expect(apart.pBetter).toBeGreaterThan(oneRate.pBetter);
  });

  it('a shown score keeps the noise: the expected pass rate sits between guess and 1 − miss', () => {
    const t = (passes: number, n: number) => ({ passes, n });
    const items: ItemTallies[] = Array.from({ length: 10 }, (_, i) => ({
      itemId: `i${i}`,
      ref: t(i % 2, 1),
      cand: t(i % 2, 1),
    }));
    const v = posteriorOverNoise(items, [{ miss: 0.1, guess: 0.05, weight: 1 }], () => ({ known: 0.5, change: 0.1 }));
    expect(v.refRate).toBeCloseTo(v.refKnown * 0.9 + (1 - v.refKnown) * 0.05, 12);
    expect(v.candRate).toBeGreaterThan(0.05);
    expect(v.candRate).toBeLessThan(0.9);
  });
});
