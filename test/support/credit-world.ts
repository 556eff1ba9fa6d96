/**
 * The section-credit world (issue #43 item 4): a skill with three planted sections for the rule
 * world's simulated target (demo-world.ts answers by the skill's text) — one that helps (the amber
 * rule: amber items are answered right only with it), one that harms (the "none" rule: even
 * specimens are answered "none", wrong), one that does nothing (tone). The preamble carries the
 * other families' rules. A section's planted effect is exact: the mean over every mask of the
 * others (each kept with p = 1/2) and every validation item of what keeping it changes.
 */
import { HARMFUL_RULE, expectedAnswer, ruleText, simulatedTargetAnswer } from '../../src/core/simulators/demo-world';
import { skillOutline, withoutSections } from '../../src/core/skill/skill-sections';

export const CREDIT_SKILL = [
  '# Specimen codes',
  '',
  'Answer with the specimen code.',
  ruleText('basalt'),
  ruleText('cobalt'),
  ruleText('dune'),
  '',
  '## Amber specimens',
  '',
  ruleText('amber'),
  '',
  '## When unsure',
  '',
  HARMFUL_RULE,
  '',
  '## Tone',
  '',
  'Keep the reply short and polite; no greeting.',
  '',
].join('\n');

export const CREDIT_SECTIONS = ['Amber specimens', 'When unsure', 'Tone'];

export interface CreditWorldItem {
  id: string;
  question: string;
  answers: string[];
  split: 'train' | 'val' | 'test';
}

const TOPICS = ['amber', 'basalt', 'cobalt', 'dune'];

/** `val` validation items over four families (a quarter amber, half even specimens), and a few train and test ones. */
export function creditWorldItems(val = 24): CreditWorldItem[] {
  const n = val + 8;
  return Array.from({ length: n }, (_, i) => {
    const topic = TOPICS[i % 4];
    const specimen = 100 + i + (Math.floor(i / 4) % 2); // both parities in every family
    return {
      id: `c${String(i).padStart(3, '0')}`,
      question: `What is the ${topic} code for specimen ${specimen}?`,
      answers: [expectedAnswer([topic], specimen)],
      split: i < val ? 'val' : i < val + 4 ? 'train' : 'test',
    };
  });
}

/** Each section's exact planted effect on pass^1 over the items, by enumerating every mask. */
export function plantedEffects(skill: string, items: readonly CreditWorldItem[]): number[] {
  const outline = skillOutline(skill);
  const s = outline.sections.length;
  const pass = (mask: number) => {
    const drop = new Set(outline.sections.map((x) => x.index).filter((j) => !(mask & (1 << j))));
    const text = withoutSections(skill, outline, drop);
    return items.filter((it) => simulatedTargetAnswer(text, it.question) === it.answers[0]).length / items.length;
  };
  return Array.from({ length: s }, (_, j) => {
    let sum = 0;
    for (let mask = 0; mask < 1 << s; mask++) if (mask & (1 << j)) sum += pass(mask) - pass(mask & ~(1 << j));
    return sum / (1 << (s - 1));
  });
}
