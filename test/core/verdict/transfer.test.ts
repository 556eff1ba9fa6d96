// Transfer (issue #42 item 5): a ranking flip is read from the lifts' intervals, never from noise.
import { describe, expect, it } from 'vitest';
import { liftSide, liftWords, transferVerdict, type TargetLift } from '../../../src/core/verdict/transfer';

const lift = (label: string, interval: [number, number], trained = false): TargetLift => ({
  label,
  trained,
  shown: (interval[0] + interval[1]) / 2,
  interval,
  level: 0.95,
});

describe('a ranking flip between targets', () => {
  it('reads a side only when the interval is clear of zero', () => {
    expect(liftSide([0.1, 0.4])).toBe('above');
    expect(liftSide([-0.4, -0.05])).toBe('below');
    expect(liftSide([-0.2, 0.3])).toBe('unsure');
    expect(liftSide([0, 0])).toBe('unsure');
  });

  it('flags a confirming target where the best skill is surely below the starting one', () => {
    const v = transferVerdict([lift('sim-target', [0.3, 0.7], true), lift('sim-contrarian', [-0.8, -0.4])]);
    expect(v).toMatchObject({ flipped: true, below: ['sim-contrarian'], above: ['sim-target'] });
    expect(v.words).toContain('Ranking flip');
    expect(v.words).toContain('sim-contrarian −60.0 points (95 % interval −80.0 to −40.0)');
    expect(v.words).toContain('while it lifts sim-target +50.0 points');
  });

  it('flags a confirming target surely below even when the training target could not tell', () => {
    expect(transferVerdict([lift('a', [-0.1, 0.2], true), lift('b', [-0.5, -0.1])]).flipped).toBe(true);
  });

  it('flags opposite sure signs when the training target is the one below', () => {
    const v = transferVerdict([lift('a', [-0.5, -0.2], true), lift('b', [0.1, 0.3])]);
    expect(v).toMatchObject({ flipped: true, below: ['a'], above: ['b'] });
  });

  it('is no flip when only the training target is below: that is its own test, not transfer', () => {
    expect(transferVerdict([lift('a', [-0.5, -0.2], true), lift('b', [-0.1, 0.3])]).flipped).toBe(false);
  });

  it('is no flip when every lift agrees or cannot be told from zero', () => {
    const v = transferVerdict([lift('a', [0.2, 0.5], true), lift('b', [0.1, 0.4]), lift('c', [0, 0.3])]);
    expect(v).toMatchObject({ flipped: false, maybeBelow: [], words: null });
  });

  it('names a confirming target below within noise as a doubt, not a flip', () => {
    const v = transferVerdict([lift('a', [0.2, 0.5], true), lift('b', [-0.4, 0.1])]);
    expect(v.flipped).toBe(false);
    expect(v.maybeBelow).toEqual(['b']);
    expect(v.words).toContain('within noise');
    expect(v.words).not.toContain('Ranking flip');
  });

  it('says a lift with its interval', () => {
    expect(liftWords({ shown: 0.125, interval: [-0.05, 0.3], level: 0.9 })).toBe(
      '+12.5 points (90 % interval −5.0 to +30.0)',
    );
  });
});
