// The score a step records as the gate's (engine/gate.ts `decidedScore`): the measure the run's current
// and best scores are in, so the learning curve's dot and its best-so-far line agree.
import { describe, expect, it } from 'vitest';
import { decidedScore, type GatedCandidate } from '../../src/engine/gate';
import type { BestRecheck } from '../../src/engine/validation-score';

const selection = {
  hash: 'h',
  score: { hard: 0.7, soft: 0.7, n: 20, complete: true },
  gate: 0.7,
  cacheHit: false,
  calls: 20,
};
const compared = { current: 0.3, candidate: 0.55, gain: 0.25, calls: 40, resampleCalls: 10 };
const recheck = (confirmed: boolean) => ({ confirmed, candidate: 0.6, fresh: 0.65, best: 0.3 }) as BestRecheck;
type Gated = Pick<GatedCandidate, 'selection' | 'compared' | 'recheck'>;

describe('decidedScore', () => {
  it('is the re-check’s score when it confirmed a new best: the score the run’s best became', () => {
    expect(decidedScore({ selection, compared, recheck: recheck(true) })).toBe(0.6);
  });

  it('is the settled score against the reference otherwise, not the first tries’', () => {
    expect(decidedScore({ selection, compared, recheck: recheck(false) })).toBe(0.55);
    expect(decidedScore({ selection, compared, recheck: null })).toBe(0.55);
  });

  it('is the measured score of a candidate forced in, never compared; null when never scored', () => {
    expect(decidedScore({ selection, compared: null } as Gated)).toBe(0.7);
    expect(decidedScore({ selection: null, compared: null } as Gated)).toBeNull();
  });
});
