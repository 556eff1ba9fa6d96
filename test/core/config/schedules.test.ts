import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bankersRound,
  budgetAt,
  createSchedule,
  scheduleSequence,
  stepSchedule,
  UNCAPPED_BUDGET,
} from '../../../src/core/config/schedules';

describe('edit-budget schedules (§4.1)', () => {
  it.each([
    ['cosine', 4, 2, 4, [4, 3, 2, 2]],
    ['cosine', 4, 2, 8, [4, 4, 3, 3, 3, 2, 2, 2]],
    ['cosine', 4, 2, 10, [4, 4, 4, 3, 3, 3, 2, 2, 2, 2]],
    ['cosine', 4, 2, 40, [...Array(13).fill(4), ...Array(13).fill(3), ...Array(14).fill(2)]],
    ['linear', 4, 2, 4, [4, 3, 2, 2]], // Math.round would give 4,3,3,2
    ['constant', 4, 2, 5, [4, 4, 4, 4, 4]],
    ['cosine', 4, 2, 1, [4]],
    ['linear', 6, 1, 1, [6]],
  ] as const)('%s max=%d min=%d T=%d', (kind, max, min, T, expected) => {
    expect(scheduleSequence(kind, max, min, T)).toEqual(expected);
  });

  it('autonomous means no cap', () => {
    expect(budgetAt('autonomous', 4, 2, 10, 3)).toBe(UNCAPPED_BUDGET);
  });

  it('step() advances first, so step 1 already uses t = 1/T, and plateaus at min after T', () => {
    let s = createSchedule('cosine', 4, 2, 4);
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = stepSchedule(s);
      s = r.state;
      seen.push(r.budget);
    }
    expect(seen).toEqual([4, 3, 2, 2, 2, 2]);
    expect(s.stepsTaken).toBe(6);
  });

  it('bankersRound rounds half to even', () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 2.4, 2.6].map(bankersRound)).toEqual([0, 2, 2, 4, 0, -2, -2, 2, 3]);
  });

  it('bankersRound matches Python: only an exact half is a tie (issue #9)', () => {
    // Python: round(2.500000000000001) == 3, round(2.4999999999999996) == 2, round(0.5000000001) == 1.
    expect(bankersRound(2.500000000000001)).toBe(3);
    expect(bankersRound(2.4999999999999996)).toBe(2);
    expect(bankersRound(0.5000000001)).toBe(1);
    expect(bankersRound(3.4999999999)).toBe(3);
    // Python: round(1e16 + 2) == 10000000000000002 (already an integer).
    expect(bankersRound(1e16 + 2)).toBe(1e16 + 2);
  });

  it('decaying schedules stay within [min, max], are integers and never increase', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('linear', 'cosine', 'constant'),
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 1, max: 200 }),
        (kind, a, b, T) => {
          const max = Math.max(a, b);
          const min = Math.min(a, b);
          const seq = scheduleSequence(kind, max, min, T + 3).concat(budgetAt(kind, max, min, T + 3, T + 10));
          seq.forEach((v, i) => {
            expect(Number.isInteger(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(min);
            expect(v).toBeLessThanOrEqual(max);
            if (i > 0) expect(v).toBeLessThanOrEqual(seq[i - 1]);
          });
        },
      ),
    );
  });
});
