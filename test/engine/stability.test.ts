// Stability as a gate criterion (issue #43), through the real SDK against the test server: a world
// with a steady target whose starting skill knows two of four families — every validation item it
// passes, it passes every time: pass^4 = 0.5 exactly. The analysts propose one line, a "code book"
// that makes the target answer every item right four times in five, at random: better on average
// (0.8 against 0.5), far less reliable (pass^4 about 0.8^4 = 0.41). The gate takes it; asked that
// pass^k not fall, it tries both skills four times on the items they passed and refuses it.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { GateArtifact } from '../../src/engine/artifacts';
import { itemPassAtK } from '../../src/core/verdict/pass-k';
import { isPass } from '../../src/core/verdict/credit';
import { hardWorldDatasetOf, noiseFreeAccuracy, trainSetup, type SeedSetup } from '../support/bench-quality';
import { generatedItems } from '../support/generated-world';
import { FLAKY_SIZES, FLAKY_SPEC as spec, flakyServer } from '../support/flaky-world';

function setup(): SeedSetup {
  const data = hardWorldDatasetOf(generatedItems({ spec, sizes: FLAKY_SIZES }));
  return { server: flakyServer, data, initialSkill: spec.initialSkill, heldOut: (skill) => noiseFreeAccuracy(skill, data, spec) };
}

const KNOBS = { epochs: 1, testRepeats: 4, evalTest: false };

describe('the stability criterion (pass^k must not fall)', () => {
  it('refuses a candidate better on average whose pass^k fell, with both figures measured', async () => {
    const store = new MemoryRunStore();
    await trainSetup('flaky', setup(), 1, { ...KNOBS, gateStability: true }, { store });
    const gate = (await store.getArtifact('flaky-1', 's0001/gate'))?.value as GateArtifact;
    const s = gate.stability!;
    expect(gate.compared!.candidate).toBeGreaterThan(gate.compared!.current);
    expect(s.k).toBe(4);
    expect(s.items).toBe(40);
    expect(s.reference).toBe(0.5);
    // The candidate's figure is C(c,4)/C(n,4) over the tries the store holds for it on validation.
    const val = new Set(setup().data.splits.val);
    const tries = new Map<string, boolean[]>();
    for (const r of await store.listRollouts('flaky-1'))
      if (r.skillHash === gate.candidateHash && r.status === 'ok' && val.has(r.itemId))
        tries.set(r.itemId, [...(tries.get(r.itemId) ?? []), isPass(r.hard)]);
    const perItem = [...tries.values()].map((t) => {
      const passes = t.filter(Boolean).length;
      return passes ? itemPassAtK({ n: t.length, passes }, 4) : 0;
    });
    expect([...tries.values()].every((t) => t.length >= 4 || !t.some(Boolean))).toBe(true);
    expect(s.candidate).toBeCloseTo(perItem.reduce((a, x) => a + x, 0) / perItem.length, 10);
    expect(s.candidate).toBeLessThan(0.5);
    expect(s.held).toBe(false);
    expect(gate.action).toBe('reject');
    expect(s.calls).toBeGreaterThan(0);
  }, 120_000);

  it('without it, the gate takes the flaky candidate', async () => {
    const store = new MemoryRunStore();
    await trainSetup('flaky', setup(), 1, KNOBS, { store });
    const gate = (await store.getArtifact('flaky-1', 's0001/gate'))?.value as GateArtifact;
    expect(gate.stability ?? null).toBeNull();
    expect(gate.action).toMatch(/accept/);
  }, 120_000);
});
