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
import { hardOptimizerAnswer } from '../support/hard-optimizer';
import { ruleText, wrongRuleText, type HardWorldSpec } from '../support/rule-world';
import { section } from '../support/sim-text';

const spec: HardWorldSpec = {
  name: 'rider',
  topics: ['amber', 'basalt', 'cobalt', 'dune'],
  grades: {},
  blind: [],
  initialSkill: '# Specimen codes\n\nAnswer with the specimen code.\n',
};
const GUESSED = 'basalt';

/** The hard world's analysts, but the first step's (no rule in the skill yet) guess basalt's rule wrong. */
function guessingOptimizer(stage: string, system: string, user: string): unknown {
  const answer = hardOptimizerAnswer(stage, system, user, { noise: 0, spec }) as Record<string, unknown> | undefined;
  if (stage !== 'reflect_failure' || !answer || section(user, '## Current Skill').includes('prefix')) return answer;
  const patch = answer.patch as { edits: { content?: string; support_count?: number }[] };
  const edits = patch.edits.map((e) =>
    e.content === ruleText(GUESSED) ? { ...e, content: wrongRuleText(GUESSED), support_count: 3 } : e,
  );
  return { ...answer, patch: { ...patch, edits } };
}

function setup(): SeedSetup {
  const data = hardWorldDatasetOf(generatedItems({ spec, sizes: { train: 40, val: 16, test: 48 } }));
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
  }, 120_000);

  it('without the check, rides into the skill and locks its family out', async () => {
    const { result } = await trainSetup('rider', setup(), 1, { dropRiders: false });
    expect(result.heldOut).toBe(0.75);
  }, 120_000);
});
