/**
 * The look-ahead world (issue #43, 3b): ten families, one of them paired and unknown to the start.
 * Its prefix rule alone fixes no item (the grade mark is still missing, and the analysts see that
 * cause only once the prefix is right), so the first step's candidate sits on a plateau; one step
 * ahead the grade mark comes in and the family's train items pass — the train batch 0.90 → 1.00.
 */
import { generatedItems } from './generated-world';
import { hardOptimizerAnswer } from './hard-optimizer';
import { ruleText, TOPICS, type HardWorldSpec } from './rule-world';
import { hardWorldDatasetOf, noiseFreeAccuracy, type SeedSetup } from './bench-quality';

const FAMILIES = TOPICS.slice(0, 10);
/** The paired family the start knows nothing of. */
export const UNKNOWN = FAMILIES[4];

export const AHEAD_SPEC: HardWorldSpec = {
  name: 'ahead',
  topics: FAMILIES,
  grades: { [UNKNOWN]: 'K' },
  blind: [],
  initialSkill: `# Specimen codes\n\nAnswer with the specimen code.\n\n${FAMILIES.filter((t) => t !== UNKNOWN)
    .map(ruleText)
    .join('\n')}\n`,
  oneCause: true,
};
export const AHEAD_SIZES = { train: 40, val: 20, test: 40 };

/** The look-ahead world; `targetNoise` makes its target slip (the noisy variant). */
export function aheadSetup(targetNoise?: { miss: number; guess: number }): SeedSetup {
  const spec = AHEAD_SPEC;
  const data = hardWorldDatasetOf(generatedItems({ spec, sizes: AHEAD_SIZES }));
  return {
    server: {
      world: 'hard',
      spec,
      noise: 0,
      ...(targetNoise ? { targetNoise } : {}),
      optimizerHook: (stage, system, user) => hardOptimizerAnswer(stage, system, user, { noise: 0, spec }),
    },
    data,
    initialSkill: spec.initialSkill,
    heldOut: (skill) => noiseFreeAccuracy(skill, data, spec),
  };
}
