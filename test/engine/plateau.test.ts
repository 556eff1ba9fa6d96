// A plateau crossed (issues #32, #40), through the real SDK against the test server: a generated
// world with a steady target, an over-broad start and a paired family. At its fourth step the
// candidate neither fixes nor breaks a train item; looking one step ahead, the analysts' grade mark
// answers four more train items right. On a target whose few repeats leave its noise in doubt each
// of the four reads 0.47 likely gained — none "likelier than not" — and the look ahead was dropped
// (held-out 0.79). Four items right at last are about two gained in expectation: the bundle goes on.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { LookAheadArtifact } from '../../src/engine/artifacts';
import { trainSetup } from '../support/bench-quality';
import { generatedSetup } from '../support/bench-generated';
import { generateWorld } from '../support/generated-world';

describe('a look one step ahead from a plateau', () => {
  it('goes on when its check gains a train item in expectation, though none is sure on its own', async () => {
    const store = new MemoryRunStore();
    const w = generateWorld(1241053228, 'plateau');
    expect(w.targetNoise).toBeNull();
    const { result } = await trainSetup(w.name, generatedSetup(w), w.seed, {}, { store });
    const ahead = (await store.getArtifact(`plateau-${w.seed}`, 's0004/ahead'))?.value as LookAheadArtifact;
    expect(ahead.after!.fixed).toEqual([]);
    expect(ahead.expectedGain!).toBeGreaterThanOrEqual(1);
    expect(ahead.taken).toBe(true);
    expect(result.heldOut).toBe(1);
  }, 120_000);

  it('goes on when its check raised the train batch, though it gained less than one item in expectation (issue #43, 3b)', async () => {
    // A generated world with a noisy target (guesses 10 %): at its second step the look ahead answers 0.95
    // of the train batch right where the candidate answered 0.85 — two items — yet each is read only a
    // little likely gained (about half an item in all), so no item was "fixed" and the extended bundle
    // was dropped for an empty list. The screen found it better: it goes on. (World 80032 was the case
    // until the check stopped settling barely plausible losses, issue #40.)
    const store = new MemoryRunStore();
    const w = generateWorld(80132, 'plateau');
    const { result } = await trainSetup(w.name, generatedSetup(w), w.seed, {}, { store });
    const ahead = (await store.getArtifact(`plateau-${w.seed}`, 's0002/ahead'))?.value as LookAheadArtifact;
    expect(ahead.after!.fixed).toEqual([]);
    expect([ahead.after!.before.hard, ahead.after!.after.hard]).toEqual([0.85, 0.95]);
    expect(ahead.expectedGain!).toBeGreaterThan(0);
    expect(ahead.expectedGain!).toBeLessThan(1);
    expect(ahead.taken).toBe(true);
    expect(result.heldOut).toBe(1);
  }, 120_000);
});
