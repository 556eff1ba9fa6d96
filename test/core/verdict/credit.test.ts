import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareOutcomes, improvedOn, isPass, nextPending, poolWithCarried, tieBreakAccepts, type ItemOutcome } from '../../../src/core/verdict/credit';
import { acceptTie, evaluateGate, type GateState } from '../../../src/core/verdict/gate';
import type { Edit } from '../../../src/core/skill/edits';

const row = (itemId: string, hard: number, soft = hard): ItemOutcome => ({ itemId, hard, soft });

describe('credit assignment: compareOutcomes', () => {
  it('names regressed and fixed items and compares means over the items both skills scored', () => {
    const before = [row('a', 1), row('b', 0), row('c', 1), row('d', 0, 0.5)];
    const after = [row('a', 0), row('b', 1), row('c', 1)]; // d errored with the candidate: left out of both sides
    const d = compareOutcomes(before, after);
    expect(d.n).toBe(3);
    expect(d.regressed).toEqual(['a']);
    expect(d.improved).toEqual(['b']);
    expect(d.before.hard).toBeCloseTo(2 / 3, 12);
    expect(d.after.hard).toBeCloseTo(2 / 3, 12);
    expect(improvedOn(d)).toBe(false);
  });

  it('counts soft gains only when hard ties', () => {
    expect(improvedOn(compareOutcomes([row('a', 0, 0.1)], [row('a', 0, 0.4)]))).toBe(true);
    expect(improvedOn(compareOutcomes([row('a', 1, 1), row('b', 0, 0)], [row('a', 0, 0.9), row('b', 0, 0.9)]))).toBe(false);
  });

  it('property: regressed and fixed are disjoint, and the hard gain is (fixed − regressed) / n for 0/1 scores', () => {
    const outcomes = fc.array(fc.tuple(fc.constantFrom(0, 1), fc.constantFrom(0, 1)), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(outcomes, (pairs) => {
        const d = compareOutcomes(pairs.map(([b], i) => row(`i${i}`, b)), pairs.map(([, a], i) => row(`i${i}`, a)));
        expect(d.regressed.filter((x) => d.improved.includes(x))).toEqual([]);
        expect(d.after.hard - d.before.hard).toBeCloseTo((d.improved.length - d.regressed.length) / d.n, 9);
        expect(isPass(1)).toBe(true);
      }),
    );
  });
});

describe('credit assignment: tie-break', () => {
  const noRegress = compareOutcomes([row('v1', 1), row('v2', 0)], [row('v1', 1), row('v2', 0)]);
  const regress = compareOutcomes([row('v1', 1), row('v2', 0)], [row('v1', 0), row('v2', 1)]);
  it('accepts a tie only when train is strictly better and no validation item regresses', () => {
    expect(tieBreakAccepts({ candidateScore: 0.5, currentScore: 0.5, trainStrictlyBetter: true, val: noRegress })).toBe(true);
    expect(tieBreakAccepts({ candidateScore: 0.5, currentScore: 0.5, trainStrictlyBetter: false, val: noRegress })).toBe(false);
    // Same mean, but one item traded for another: that is not "no regression".
    expect(tieBreakAccepts({ candidateScore: 0.5, currentScore: 0.5, trainStrictlyBetter: true, val: regress })).toBe(false);
    expect(tieBreakAccepts({ candidateScore: 0.49, currentScore: 0.5, trainStrictlyBetter: true, val: noRegress })).toBe(false);
  });

  it('acceptTie makes the candidate current, and best when it ties best', () => {
    const state: GateState = { currentSkill: 'a', currentScore: 1, currentOrigin: 'x', bestSkill: 'a', bestScore: 1, bestStep: 2, bestOrigin: 'x' };
    const d = acceptTie(state, { skill: 'b', score: 1, origin: 'step_0003', step: 3 });
    expect(d.action).toBe('accept_tie');
    expect(d.state).toMatchObject({ currentSkill: 'b', bestSkill: 'b', bestStep: 3 });
    // The plain gate would have refused the same tie.
    expect(evaluateGate(state, { skill: 'b', score: 1, origin: 'step_0003', step: 3 }).action).toBe('reject');
    const behindBest = acceptTie({ ...state, bestScore: 2, bestSkill: 'z' }, { skill: 'b', score: 1, origin: 'o', step: 3 });
    expect(behindBest.state).toMatchObject({ currentSkill: 'b', bestSkill: 'z' });
  });
});

describe('credit assignment: carried edits', () => {
  const e = (content: string): Edit => ({ op: 'append', content });
  it('puts carried edits first, marked; a mark in a model reply is ignored', () => {
    const pool = poolWithCarried([{ ...e('new'), carried: true }], [e('old')]);
    expect(pool.map((x) => [x.content, x.carried ?? false])).toEqual([
      ['old', true],
      ['new', false],
    ]);
  });

  it('carries only from a promising rejected candidate, at most the cap, unmarked', () => {
    const edits = [{ ...e('a'), carried: true }, e('b'), e('c')];
    expect(nextPending({ accepted: true, promising: true, edits, cap: 4 })).toEqual([]);
    expect(nextPending({ accepted: false, promising: false, edits, cap: 4 })).toEqual([]);
    expect(nextPending({ accepted: false, promising: true, edits, cap: 2 })).toEqual([e('a'), e('b')]);
  });
});
