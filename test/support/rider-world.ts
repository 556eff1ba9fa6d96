/**
 * The rider world (issue #43, 3a): four families, a steady target, a start that knows none of them,
 * and analysts who — at the first step only, while the skill states no rule — guess one family's rule
 * wrong, confidently, beside the right rules of the others. The target follows a family's first stated
 * prefix rule (rule-world.ts), so the guess, once in the skill, hides the right rule appended later.
 */
import { hardOptimizerAnswer } from './hard-optimizer';
import { ruleText, wrongRuleText, type HardWorldSpec } from './rule-world';
import { section } from './sim-text';

export const RIDER_SPEC: HardWorldSpec = {
  name: 'rider',
  topics: ['amber', 'basalt', 'cobalt', 'dune'],
  grades: {},
  blind: [],
  initialSkill: '# Specimen codes\n\nAnswer with the specimen code.\n',
};
export const RIDER_SIZES = { train: 40, val: 16, test: 48 };
/** The family the first step's analysts guess wrong. */
export const GUESSED = 'basalt';

/** The hard world's analysts, but the first step's (no rule in the skill yet) guess basalt's rule wrong. */
export function guessingOptimizer(stage: string, system: string, user: string): unknown {
  const answer = hardOptimizerAnswer(stage, system, user, { noise: 0, spec: RIDER_SPEC }) as Record<string, unknown> | undefined;
  if (stage !== 'reflect_failure' || !answer || section(user, '## Current Skill').includes('prefix')) return answer;
  const patch = answer.patch as { edits: { content?: string; support_count?: number }[] };
  const edits = patch.edits.map((e) => (e.content === ruleText(GUESSED) ? { ...e, content: wrongRuleText(GUESSED), support_count: 3 } : e));
  return { ...answer, patch: { ...patch, edits } };
}
