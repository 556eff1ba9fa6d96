// One reckoning of a run's test lift (core/report/test-lift.ts): the summary's testDelta, the lift
// card, the HTML report and the runner's closing words all read it, so they cannot disagree.
import { describe, expect, it } from 'vitest';
import { runLift, testGain } from '../../../src/core/report/test-lift';

const tests = [
  { skill: 'none', hard: 0.25 },
  { skill: 'initial', hard: 0.5 },
  { skill: 'best', hard: 0.875 },
];

describe('a run’s test lift', () => {
  it('is one skill’s test accuracy over another’s, and nothing when either was not tested', () => {
    expect(testGain(tests, 'best', 'initial')).toBe(0.375);
    expect(testGain(tests, 'best', 'none')).toBe(0.625);
    expect(testGain(tests, 'final', 'initial')).toBeNull();
    expect(testGain([], 'best', 'initial')).toBeNull();
  });
  it('is the shown lift of its interval when the run measured one, the plain gain otherwise', () => {
    const noisy = { estimate: 0.9, measured: 0.7, noise: { miss: 0.1, guess: 0.05 } };
    const steady = { estimate: 0.9, measured: 0.7, noise: { miss: 0, guess: 0 } };
    expect(runLift({ tests, lift: noisy })).toBe(0.9);
    expect(runLift({ tests, lift: steady })).toBe(0.7);
    expect(runLift({ tests })).toBe(0.375);
    expect(runLift({ tests: [] })).toBeNull();
  });
});
