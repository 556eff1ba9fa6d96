// Which lift figure a person sees (core/verdict/lift.ts shownLift): the lift card, the report and the
// quality benchmark use the same rule.
import { describe, expect, it } from 'vitest';
import { shownLift } from '../../../src/core/verdict/lift';

describe('the lift a person is shown', () => {
  const l = (miss: number, guess: number) => ({ measured: 0.8, estimate: 1, noise: { miss, guess } });
  it('is the estimate on a noisy target and the measurement on a deterministic one', () => {
    expect(shownLift(l(0.1, 0.05))).toBe(1);
    expect(shownLift(l(0.005, 0.005))).toBe(0.8);
  });
});
