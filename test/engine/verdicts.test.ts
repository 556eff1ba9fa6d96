// Verdicts you can bet on (issue #32), through the real SDK against the test server: a neutral
// step out of a locked start is crossed by looking one step ahead (on by default), a noisy
// target's rewordings are never taken for gains by posterior verdicts (the gate confidence, 0.7 by
// default: the A/A world), an agent's gains are told from its slips, and all are the same at any
// concurrency.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { LookAheadArtifact } from '../../src/engine/artifacts';
import { trainSeed } from '../support/bench-quality';
import { agenticSeed } from '../support/bench-agentic';

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

describe('posterior verdicts (the default)', () => {
  const sure = {};

  it('accept no rewording on a noisy target (the A/A world), where a higher mean accepts some', async () => {
    const byMean = await trainSeed('aa', 1, { gateConfidence: 0 });
    expect(byMean.accepts).toBeGreaterThan(0);
    for (const seed of [1, 3, 6, 7]) {
      const r = await trainSeed('aa', seed, sure);
      expect(r.accepts, `seed ${seed}`).toBe(0);
      expect(r.bestMoved, `seed ${seed}`).toBe(false);
    }
  }, 240_000);

  it('take no tie on a few lucky train answers: each gain a tie rests on is asked again until sure', async () => {
    // Seed 8 took a tie on one item a reference that knew it failed three answers of four; seed 26
    // on five single answers that each might have been a gain.
    for (const seed of [8, 26]) {
      const store = new MemoryRunStore();
      const r = await trainSeed('aa', seed, sure, { store });
      expect(r.accepts, `seed ${seed}`).toBe(0);
      const gates = await Promise.all(
        (await store.getSteps(`aa-${seed}`)).map((x) =>
          store.getArtifact(`aa-${seed}`, `s${String(x.step).padStart(4, '0')}/gate`),
        ),
      );
      const refused = gates.filter((g) => (g?.value as { tieBreak?: { accepted: boolean } } | undefined)?.tieBreak);
      expect(refused.length, `seed ${seed}: ties weighed`).toBeGreaterThan(0);
    }
  }, 240_000);

  it('still learn the noisy world', async () => {
    for (const seed of [2, 3]) {
      const r = await trainSeed('noisy', seed, sure);
      expect(r.heldOut, `seed ${seed}`).toBe(1);
      expect(r.accepts, `seed ${seed}`).toBeGreaterThan(1);
    }
  }, 240_000);

  it('ask again the side in doubt: the reference’s pass beside a fail is mostly left alone, and the noisy world learns as well', async () => {
    // What it saves in calls is a figure over seeds (bench:quality --world=noisy --off=askDoubtfulSide), not
    // one seed's: since the gate weighs "nothing changed" (issue #40), seed 2 happens to take more with it.
    const both = await trainSeed('noisy', 2, { askDoubtfulSide: false });
    const store = new MemoryRunStore();
    const doubtful = await trainSeed('noisy', 2, sure, { store });
    expect([doubtful.heldOut, both.heldOut]).toEqual([1, 1]);
    // Beside a candidate's fail, the reference's pass is mostly left alone: fewer repeats of it than of the candidate.
    const rows = (await store.listRollouts('noisy-2')).filter((r) => !r.cached);
    const repeats = (re: RegExp) => rows.filter((r) => re.test(r.phase)).length;
    expect(repeats(/\/check-current\/r\d+$/)).toBeLessThan(repeats(/\/check\/r\d+$/));
  }, 240_000);

  it('tell an agent’s gain from its slip: a tie resting on one train item is settled with twice the samples', async () => {
    const store = new MemoryRunStore();
    // Found at the reference's edit budget (4): the default's 6 fixes the family in a bigger step.
    const r = await agenticSeed('agentic', 2, { ...sure, editBudget: 4 }, { store });
    // Three answers per item left step 4's fix (a family validation cannot see) at 0.94.
    expect(r.heldOut).toBe(1);
    const rows = await store.listRollouts('agentic-2');
    expect(rows.some((x) => /\/check.*\/r5$/.test(x.phase))).toBe(true);
  }, 240_000);

  it('give the same run at any concurrency', async () => {
    const one = new MemoryRunStore();
    const many = new MemoryRunStore();
    await trainSeed('noisy', 2, sure, { store: one, concurrency: 1 });
    await trainSeed('noisy', 2, sure, { store: many, concurrency: 8 });
    const steps = async (s: MemoryRunStore) =>
      (await s.getSteps('noisy-2')).map((x) => [x.step, x.action, x.candidateHash, x.candidateGateScore]);
    expect(await steps(many)).toEqual(await steps(one));
  }, 240_000);
});
