import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { evaluateGate, gateScore, isAccept, semanticDensity, type GateState } from '../../../src/core/verdict/gate';
import { SLOW_UPDATE_END, SLOW_UPDATE_START } from '../../../src/core/skill/protected-regions';

const state: GateState = {
  currentSkill: 'cur',
  currentScore: 0.5,
  currentOrigin: 'step_0002',
  bestSkill: 'best',
  bestScore: 0.6,
  bestStep: 1,
  bestOrigin: 'step_0001',
};

describe('gate score (§4.2)', () => {
  it.each([
    ['hard', 0.5, 0.8, undefined, 0.5],
    ['soft', 0.5, 0.8, undefined, 0.8],
    ['mixed', 0.5, 0.8, undefined, 0.65],
    ['mixed', 0.5, 0.8, 0.25, 0.575],
    ['mixed', 0.5, 0.8, 7, 0.8], // weight clamped to 1
    ['mixed', 0.5, 0.8, -1, 0.5], // weight clamped to 0
  ] as const)('%s hard=%d soft=%d w=%s', (metric, h, s, w, expected) => {
    expect(gateScore(h, s, { metric, mixedWeight: w })).toBeCloseTo(expected, 12);
  });

  it('adds the optional density bonus computed on the body only', () => {
    const skill = `ALWAYS cite. never guess\n${SLOW_UPDATE_START}\nMUST MUST MUST\n${SLOW_UPDATE_END}\n`;
    expect(semanticDensity(skill)).toBeCloseTo(2 / 4, 12);
    expect(gateScore(0.5, 0, { metric: 'hard', densityWeight: 0.05 }, skill)).toBeCloseTo(0.525, 12);
    expect(semanticDensity('')).toBe(0);
  });

  it('keeps fractional hard scores', () => {
    expect(gateScore(0.375, 0, { metric: 'hard' })).toBe(0.375);
  });
});

describe('evaluateGate (§2.6)', () => {
  it('accepts a new best when above both current and best', () => {
    const d = evaluateGate(state, { skill: 'cand', score: 0.7, origin: 'step_0003', step: 3 });
    expect(d.action).toBe('accept_new_best');
    expect(d.state).toMatchObject({ currentSkill: 'cand', currentScore: 0.7, bestSkill: 'cand', bestScore: 0.7, bestStep: 3, bestOrigin: 'step_0003' });
  });
  it('accepts above current but not above best, leaving best alone', () => {
    const d = evaluateGate(state, { skill: 'cand', score: 0.55, origin: 'step_0003', step: 3 });
    expect(d.action).toBe('accept');
    expect(d.state).toMatchObject({ currentSkill: 'cand', currentScore: 0.55, bestSkill: 'best', bestScore: 0.6, bestStep: 1 });
  });
  it('rejects ties and worse scores, changing nothing', () => {
    expect(evaluateGate(state, { skill: 'c', score: 0.5, origin: 'x', step: 3 })).toEqual({ action: 'reject', state });
    expect(evaluateGate(state, { skill: 'c', score: 0.1, origin: 'x', step: 3 })).toEqual({ action: 'reject', state });
  });
  it('force-accept always takes the candidate; best moves only on strict improvement', () => {
    const worse = evaluateGate(state, { skill: 'c', score: 0.1, origin: 'x', step: 3 }, false);
    expect(worse.action).toBe('force_accept');
    expect(worse.state).toMatchObject({ currentSkill: 'c', currentScore: 0.1, bestSkill: 'best' });
    const better = evaluateGate(state, { skill: 'c', score: 0.9, origin: 'x', step: 3 }, false);
    expect(better.state).toMatchObject({ bestSkill: 'c', bestScore: 0.9, bestStep: 3 });
  });
  it('counts accepts by action name', () => {
    expect(['accept', 'accept_new_best', 'force_accept', 'reject', 'skip_no_patches'].map(isAccept)).toEqual([true, true, true, false, false]);
  });
  it('keeps current ≤ best in gated mode (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (scores) => {
        let s: GateState = { ...state, currentScore: 0.2, bestScore: 0.2 };
        scores.forEach((score, i) => {
          s = evaluateGate(s, { skill: `c${i}`, score, origin: `o${i}`, step: i + 1 }).state;
          expect(s.currentScore).toBeLessThanOrEqual(s.bestScore);
        });
      }),
    );
  });
});
