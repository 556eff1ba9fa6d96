// A gate that counts "nothing changed" among what a candidate may have done (issue #40), through the
// real SDK against the test server: generated A/A worlds, whose optimizer only rewords, on noisy
// targets. Read as changing a few items at least, a rewording's flips summed to P(better) ≥ 0.7 and
// the gate accepted it (9 of 66 A/A runs of a tuning set); with the neutral prior they read as noise.
import { describe, expect, it } from 'vitest';
import { trainSetup } from '../support/bench-quality';
import { generatedSetup } from '../support/bench-generated';
import { describeWorld, generateWorld } from '../support/generated-world';

describe('a candidate that may change nothing', () => {
  // Two A/A worlds where the gate without the neutral prior accepted a rewording once.
  it.each([90148, 90223])('is no gain on A/A world %i: no step accepted, the best still the start', async (seed) => {
    const w = generateWorld(seed, `aa-${seed}`);
    expect(w.aa, describeWorld(w)).toBe(true);
    const { result } = await trainSetup(w.name, generatedSetup(w), w.seed, {});
    expect(result.accepts).toBe(0);
    expect(result.bestMoved).toBe(false);
  }, 120_000);
});
