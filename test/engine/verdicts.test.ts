// Verdicts you can bet on (issue #32), through the real SDK against the test server: a neutral
// step out of a locked start is crossed by looking one step ahead (on by default), a noisy
// target's rewordings are never taken for gains with posterior verdicts (the gate confidence knob:
// the A/A world), and both are the same at any concurrency.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { LookAheadArtifact } from '../../src/engine/artifacts';
import { trainSeed } from '../support/bench-quality';

describe('a locked start', () => {
  it('is crossed by looking one step ahead: the neutral step takes the next step’s edits and goes on', async () => {
    const store = new MemoryRunStore();
    const r = await trainSeed('broad-pairs', 1, {}, { store });
    expect(r.heldOut).toBe(1);
    const ahead = (await store.getArtifact('broad-pairs-1', 's0001/ahead'))?.value as LookAheadArtifact | undefined;
    expect(ahead?.taken).toBe(true);
    expect(ahead?.added.length).toBeGreaterThan(0);
  }, 120_000);

  it('stays locked without it: the neutral step fixes no item, on train or validation, step after step', async () => {
    const r = await trainSeed('broad-pairs', 1, { lookAhead: false });
    expect(r.heldOut).toBe(0.375);
    expect(r.accepts).toBe(0);
  }, 120_000);

  it('is crossed the same way at any concurrency', async () => {
    const one = new MemoryRunStore();
    const many = new MemoryRunStore();
    await trainSeed('broad-pairs', 1, {}, { store: one, concurrency: 1 });
    await trainSeed('broad-pairs', 1, {}, { store: many, concurrency: 8 });
    const steps = async (s: MemoryRunStore) => (await s.getSteps('broad-pairs-1')).map((x) => [x.step, x.action, x.candidateHash]);
    expect(await steps(many)).toEqual(await steps(one));
  }, 120_000);
});

describe('posterior verdicts', () => {
  const sure = { gateConfidence: 0.8 };

  it('accept no rewording on a noisy target (the A/A world), where a higher mean accepts some', async () => {
    const byMean = await trainSeed('aa', 1, {});
    expect(byMean.accepts).toBeGreaterThan(0);
    for (const seed of [1, 3, 6, 7]) {
      const r = await trainSeed('aa', seed, sure);
      expect(r.accepts, `seed ${seed}`).toBe(0);
      expect(r.bestMoved, `seed ${seed}`).toBe(false);
    }
  }, 240_000);

  it('still learn the noisy world', async () => {
    const r = await trainSeed('noisy', 1, sure);
    expect(r.heldOut).toBe(1);
    expect(r.accepts).toBeGreaterThan(1);
  }, 240_000);

  it('give the same run at any concurrency', async () => {
    const one = new MemoryRunStore();
    const many = new MemoryRunStore();
    await trainSeed('noisy', 2, sure, { store: one, concurrency: 1 });
    await trainSeed('noisy', 2, sure, { store: many, concurrency: 8 });
    const steps = async (s: MemoryRunStore) => (await s.getSteps('noisy-2')).map((x) => [x.step, x.action, x.candidateHash, x.candidateGateScore]);
    expect(await steps(many)).toEqual(await steps(one));
  }, 240_000);
});
