// An undecided gate buys evidence instead of saying no (issue #40), through the real SDK against
// the test server: on a noisy target (misses 20 %, guesses 10 %) a fix worth a family is a few
// validation items, and three answers per item leave the posterior short of the run's confidence.
// The gate asks up to twice the samples on the items where a change is plausible and decides on
// them; the step's gate artifact says what it bought and how the verdict moved.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { GateArtifact } from '../../src/engine/artifacts';
import { trainSeed } from '../support/bench-quality';

describe('an undecided gate', () => {
  it('asks for more samples and accepts the fix the run’s samples left in doubt', async () => {
    const store = new MemoryRunStore();
    const r = await trainSeed('cold-noisier', 5, {}, { store });
    const gate = (await store.getArtifact('cold-noisier-5', 's0002/gate'))?.value as GateArtifact;
    expect(gate.evidence).toMatchObject({ asked: 'samples', samples: 6 });
    expect(gate.evidence!.before.pBetter).toBeLessThan(0.7);
    expect(gate.evidence!.after.pBetter).toBeGreaterThanOrEqual(0.7);
    expect(gate.evidence!.calls).toBeGreaterThan(0);
    expect(gate.action).toMatch(/^accept/);
    // The candidate was measured by the gate, not read from a cache, though the second look found its answers stored.
    expect(gate.cacheHit).toBe(false);
    expect(gate.compared!.calls).toBeGreaterThan(gate.evidence!.calls);
    // Repeats beyond the run's three samples per item were drawn.
    const rows = await store.listRollouts('cold-noisier-5');
    expect(rows.some((x) => /^s0002\/gate.*\/r[345]$/.test(x.phase))).toBe(true);
    expect(r.heldOut).toBeGreaterThanOrEqual(0.875);
  }, 120_000);
});
