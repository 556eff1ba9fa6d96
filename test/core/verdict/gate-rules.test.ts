// Gate rules (issue #11): mean, per-task no-regression, significance of the paired gain.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { judgeByRule, meanAndStandardError, pairedDifferences, type GateRuleOptions } from '../../../src/core/verdict/gate-rules';
import type { ItemOutcome } from '../../../src/core/verdict/credit';

const rows = (scores: number[], prefix = 'v'): ItemOutcome[] => scores.map((h, i) => ({ itemId: `${prefix}${i}`, hard: h, soft: h }));
const opts = (rule: GateRuleOptions['rule'], k?: number): GateRuleOptions => ({ rule, metric: 'hard', k });
const outcomes = fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 40 });

describe('gate rule: no_regression', () => {
  it('refuses a candidate that fixes three items but breaks one, naming the item', () => {
    const v = judgeByRule(rows([1, 0, 0, 0, 1]), rows([0, 1, 1, 1, 1]), opts('no_regression'));
    expect(v).toMatchObject({ allowed: false, regressed: ['v0'], n: 5 });
    expect(v.reason).toMatch(/1 item that passed would fail \(v0\)/);
  });

  it('allows exactly the candidates with no regressed item (property)', () => {
    fc.assert(
      fc.property(outcomes, fc.array(fc.constantFrom(0, 1), { minLength: 40, maxLength: 40 }), (before, after) => {
        const cand = rows(after.slice(0, before.length));
        const v = judgeByRule(rows(before), cand, opts('no_regression'));
        const regressed = before.some((b, i) => b === 1 && after[i] === 0);
        return v.allowed === !regressed && v.regressed.length === before.filter((b, i) => b === 1 && after[i] === 0).length;
      }),
    );
  });

  it('compares only the items both skills were scored on', () => {
    // v0 errored for the candidate (no row): it cannot count as a regression.
    const v = judgeByRule(rows([1, 0]), [{ itemId: 'v1', hard: 1, soft: 1 }], opts('no_regression'));
    expect(v).toMatchObject({ allowed: true, n: 1, regressed: [] });
  });
});

describe('gate rule: significance', () => {
  it('mean and standard error of paired differences', () => {
    expect(meanAndStandardError([])).toEqual({ mean: 0, se: 0 });
    expect(meanAndStandardError([0.5])).toEqual({ mean: 0.5, se: 0 });
    const { mean, se } = meanAndStandardError([1, 0, 1, 0]);
    expect(mean).toBe(0.5);
    expect(se).toBeCloseTo(Math.sqrt(1 / 3 / 4), 12);
    expect(pairedDifferences(rows([0, 1]), rows([1, 1]), 'hard')).toEqual([1, 0]);
    expect(pairedDifferences([{ itemId: 'a', hard: 0, soft: 0.5 }], [{ itemId: 'a', hard: 1, soft: 0.5 }], 'mixed', 0.5)).toEqual([0.5]);
  });

  it('two fixes out of twenty are not significant at k = 2 but are at k = 1; a uniform gain always is', () => {
    const before = rows(Array(20).fill(0));
    const after = rows([1, 1, ...Array(18).fill(0)]);
    expect(judgeByRule(before, after, opts('significance', 2))).toMatchObject({ allowed: false });
    expect(judgeByRule(before, after, opts('significance', 2)).reason).toMatch(/not above 2 × its standard error/);
    const many = rows([...Array(8).fill(1), ...Array(12).fill(0)]);
    expect(judgeByRule(before, many, opts('significance', 2))).toMatchObject({ allowed: true });
    const soft = (xs: number[]) => xs.map((s, i) => ({ itemId: `v${i}`, hard: 0, soft: s }));
    expect(judgeByRule(soft([0.2, 0.2]), soft([0.3, 0.3]), { rule: 'significance', metric: 'soft', k: 5 })).toMatchObject({ allowed: true, se: 0 });
  });

  it('never allows a gain that is not positive, whatever k (property)', () => {
    fc.assert(
      fc.property(outcomes, fc.array(fc.constantFrom(0, 1), { minLength: 40, maxLength: 40 }), fc.double({ min: 0, max: 5, noNaN: true }), (before, after, k) => {
        const v = judgeByRule(rows(before), rows(after.slice(0, before.length)), opts('significance', k));
        return !v.allowed || v.gain > 0;
      }),
    );
  });

  it('is monotone in k: a larger k never allows what a smaller one refused (property)', () => {
    fc.assert(
      fc.property(outcomes, fc.array(fc.constantFrom(0, 1), { minLength: 40, maxLength: 40 }), fc.double({ min: 0, max: 3, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), (before, after, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const cand = rows(after.slice(0, before.length));
        return !judgeByRule(rows(before), cand, opts('significance', hi)).allowed || judgeByRule(rows(before), cand, opts('significance', lo)).allowed;
      }),
    );
  });
});

describe('gate rule: mean', () => {
  it('adds nothing to the higher mean', () => {
    expect(judgeByRule(rows([1, 0]), rows([0, 1]), opts('mean'))).toMatchObject({ allowed: true, regressed: ['v0'] });
  });
});
