// An undecided gate buys evidence instead of saying no (issue #40), through the real SDK against
// the test server: on a noisy target (misses 20 %, guesses 10 %) a fix worth a family is a few
// validation items, and three answers per item leave the posterior short of the run's confidence.
// The gate asks up to twice the samples on the items where a change is plausible and decides on
// them; the step's gate artifact says what it bought and how the verdict moved.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { CheckArtifact, GateArtifact } from '../../src/engine/artifacts';
import { trainSeed } from '../support/bench-quality';

/** Both scenarios were found at the reference's edit budget; the default's 6 takes bigger steps past them. */
const REFERENCE_BUDGET = { editBudget: 4 };

describe('an undecided gate', () => {
  it('asks for more samples and accepts the fix the run’s samples left in doubt', async () => {
    const store = new MemoryRunStore();
    const r = await trainSeed('cold-noisier', 2, REFERENCE_BUDGET, { store });
    const gate = (await store.getArtifact('cold-noisier-2', 's0002/gate'))?.value as GateArtifact;
    expect(gate.evidence).toMatchObject({ asked: 'samples', samples: 6 });
    expect(gate.evidence!.before.pBetter).toBeLessThan(0.7);
    expect(gate.evidence!.after.pBetter).toBeGreaterThanOrEqual(0.7);
    expect(gate.evidence!.calls).toBeGreaterThan(0);
    expect(gate.action).toMatch(/^accept/);
    // The candidate was measured by the gate, not read from a cache, though the second look found its answers stored.
    expect(gate.cacheHit).toBe(false);
    expect(gate.compared!.calls).toBeGreaterThan(gate.evidence!.calls);
    // Repeats beyond the run's three samples per item were drawn.
    const rows = await store.listRollouts('cold-noisier-2');
    expect(rows.some((x) => /^s0002\/gate.*\/r[345]$/.test(x.phase))).toBe(true);
    expect(r.heldOut).toBeGreaterThanOrEqual(0.875);
  }, 120_000);

  it('a train screen left undecided asks for more samples too, and passes the fix it had refused (cold-noisier 4)', async () => {
    // Step 5 gains one family: a train item or two of twenty on a target that misses one answer in five,
    // while a slip elsewhere made "worse" (0.44) likelier than "better" (0.21) on the run's three samples.
    // The screen said no and the run ended at 0.75 (b20444c); with up to six samples it passes, the gate accepts.
    const store = new MemoryRunStore();
    const r = await trainSeed('cold-noisier', 4, REFERENCE_BUDGET, { store });
    const check = (await store.getArtifact('cold-noisier-4', 's0005/check'))?.value as CheckArtifact;
    expect(check.evidence).toMatchObject({ asked: 'samples', samples: 6 });
    expect(check.evidence!.before.pBetter - check.evidence!.before.pWorse).toBeLessThan(0.2);
    expect(check.evidence!.after.pBetter - check.evidence!.after.pWorse).toBeGreaterThanOrEqual(0.2);
    expect(check.improved).toBe(true);
    const gate = (await store.getArtifact('cold-noisier-4', 's0005/gate'))?.value as GateArtifact;
    expect(gate.action).toMatch(/^accept/);
    expect(r.heldOut).toBeGreaterThanOrEqual(0.875);
  }, 120_000);
});
