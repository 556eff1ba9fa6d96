// A rider that changes nothing (issue #43, item 3a), through the real SDK against the test server: a
// rule world with a steady target where the first step's analysts guess one family's rule wrong,
// confidently, beside the right rules of the others. The guess breaks no item (that family failed
// before and fails after), so neither the repair nor leave-one-out blame reads it; once accepted it
// states the family's prefix first, and the right rule appended later changes nothing — the family is
// locked out (held-out 0.75). Left out on the bundle's gains, the guess loses none of them: it is
// dropped before the gate, and the right rule comes in a step later (held-out 1).
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { RidersArtifact } from '../../src/engine/artifacts';
import { hardWorldDatasetOf, noiseFreeAccuracy, trainSetup, type SeedSetup } from '../support/bench-quality';
import { generatedItems } from '../support/generated-world';
import { ruleText, wrongRuleText } from '../support/rule-world';
import { GUESSED, RIDER_SIZES, RIDER_SPEC as spec, guessingOptimizer } from '../support/rider-world';

function setup(): SeedSetup {
  const data = hardWorldDatasetOf(generatedItems({ spec, sizes: RIDER_SIZES }));
  return {
    server: { world: 'hard', spec, noise: 0, optimizerHook: guessingOptimizer },
    data,
    initialSkill: spec.initialSkill,
    heldOut: (skill) => noiseFreeAccuracy(skill, data, spec),
  };
}

describe('a rider that changes nothing', () => {
  it('is dropped before the gate, so the right rule for its family comes in later', async () => {
    const store = new MemoryRunStore();
    const { result } = await trainSetup('rider', setup(), 1, { dropRiders: true }, { store });
    expect(result.heldOut).toBe(1);
    const riders = (await store.getArtifact('rider-1', 's0001/riders'))?.value as RidersArtifact;
    expect(riders.dropped.map((e) => e.content)).toEqual([wrongRuleText(GUESSED)]);
    expect(riders.taken).toBe(true);
    // Only the guess was left out and probed: the right rules name the items they gained (their family).
    expect(riders.probes.map((p) => p.edit.content)).toEqual([wrongRuleText(GUESSED)]);
    expect(riders.named!.map((n) => n.edit.content).sort()).toEqual(['amber', 'cobalt', 'dune'].map(ruleText).sort());
  }, 120_000);

  it('without the check, rides into the skill and locks its family out', async () => {
    const { result } = await trainSetup('rider', setup(), 1, { dropRiders: false });
    expect(result.heldOut).toBe(0.75);
  }, 120_000);
});
