import { describe, expect, it } from 'vitest';
import { coerceLearningRate, decideLearningRate } from '../../../src/core/config/learning-rate';

describe('autonomous learning rate (§3.4)', () => {
  it.each([
    [3, 3],
    [-2, 0],
    [2.0, 2],
    [2.5, 2], // the reference takes the integer part (issue #20 item 18)
    [2.7, 2],
    [[1], 1],
    [{ n: 3 }, 3],
    [[], null],
    ['apply 4 edits', 4],
    ['none', null],
    [true, null],
    [null, null],
    [undefined, null],
  ])('coerces %j to %j', (raw, expected) => {
    expect(coerceLearningRate(raw)).toBe(expected);
  });
  it('clamps to the available items and marks fallbacks', () => {
    expect(decideLearningRate(9, 5)).toEqual({ learningRate: 5, rawLearningRate: 9, availableItems: 5, clamped: true, fallback: false });
    expect(decideLearningRate('x', 5)).toMatchObject({ learningRate: 0, fallback: true });
  });
});
