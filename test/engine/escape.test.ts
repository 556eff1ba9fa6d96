// A lock the old gate never left (issue #40), through the real SDK against the test server: the
// broad world with a repairer that restores nothing. Every step replaces the over-broad rule with
// precise rules and so breaks the families it carried; the repair only drops edits, so the check
// says "no better" (or validation ties) step after step. The loop escapes by looking ahead at what
// the bundle broke: the failure analysts read those items with the candidate, their rules join the
// bundle, and the check finds it better and breaking fewer.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { LookAheadArtifact } from '../../src/engine/artifacts';
import { trainSeed } from '../support/bench-quality';

describe('an over-broad start with a repairer that restores nothing', () => {
  it('is left by a repair aimed at what the bundle broke: the analysts read the broken items', async () => {
    const store = new MemoryRunStore();
    const r = await trainSeed('broad-blind', 1, {}, { store });
    expect(r.initialHeldOut).toBe(0.375);
    expect(r.heldOut).toBe(1);
    const escape = (await store.getArtifact('broad-blind-1', 's0001/escape'))?.value as LookAheadArtifact | undefined;
    expect(escape?.taken).toBe(true);
    // It read only what the bundle broke, and what it added left fewer items broken.
    expect(escape!.failing.length).toBeGreaterThan(0);
    expect(escape!.added.length).toBeGreaterThan(0);
    expect(escape!.after!.regressed.length).toBeLessThan(escape!.failing.length);
  }, 120_000);

  it('stays at its start without looking ahead: every step breaks what the broad rule carried', async () => {
    const r = await trainSeed('broad-blind', 1, { lookAhead: false });
    expect(r.heldOut).toBe(0.375);
    expect(r.accepts).toBe(0);
  }, 120_000);
});
