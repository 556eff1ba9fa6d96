/**
 * The rule worlds of the test LLM server: the easy world lives in src/core/simulators/demo-world.ts (the
 * in-page demo runs it too); the hard worlds below are built on it.
 */
export * from '../../src/core/simulators/demo-world';
import { HARMFUL_KEY, HARMFUL_RULE, TOPICS, parseQuestion, ruleKey, topicCode, type WorldItem } from '../../src/core/simulators/demo-world';

/*
 * The hard world (issue #8): built to defeat a loop that wastes its edit budget.
 * - 8 answer families, 15 specimens each (120 items), one rule per family.
 * - Pairs: dune, ember and fjord answers also carry a grade mark ("EMB3-104 grade K") that a
 *   second rule teaches; half a pair earns partial (soft) credit and no hard credit.
 * - The starting skill holds a harmful rule (even specimens answered "none") and an over-broad
 *   rule that overrides every family's prefix with one digit: it happens to be right for amber
 *   and cobalt, so removing it loses them unless their own rules come in the same candidate.
 * - Validation-blind families: garnet and harbor have no validation items at all.
 * - 13 edits are needed (delete 2 rules, 8 prefixes, 3 grade marks) against a cosine budget of
 *   4,4,3,2,2,2 over 6 steps; the simulated optimizer (hard-optimizer.ts) also proposes harmful
 *   and broad rules, echoes JSON examples it finds in its prompts, and hallucinates targets.
 *
 * The broad world (issue #19) starts from an over-broad rule alone that carries three of its
 * eight families fully (held-out 0.375): replacing it with one family's rule loses the three,
 * so a bundle must carry the replacement and the three restored rules — more than the decayed
 * budget — and its repairer (llm-server `repairSlipRate`) sometimes slips in a harmful rule.
 *
 * The broad-pairs world (issue #32) is the locked start: the broad world where every family the
 * broad rule does not carry also needs a grade mark, and the analysts see one cause of a failure
 * at a time (a missing grade mark only once the prefix is right). Replacing the broad rule by one
 * family's precise form, with the three it carried restored, fixes no train item (the fixed
 * family still lacks its mark) and breaks none: a neutral step the train check reads "no better".
 */
export interface HardWorldSpec {
  name: string;
  topics: readonly string[];
  /** Families whose answers carry a grade mark a second rule teaches. */
  grades: Readonly<Record<string, string>>;
  /** Families with no validation items. */
  blind: readonly string[];
  initialSkill: string;
  /** The simulated analysts see one cause of a failure at a time: a missing grade mark only once the prefix is right. */
  oneCause?: boolean;
}

/** Blanket rules that override every family's prefix with one digit; the first one in the skill wins. */
export const BROAD_RULES = [9, 3, 8].map((digit) => ({
  digit,
  text: `- For any specimen, the prefix is the first three letters of its family in capitals followed by ${digit}.`,
  key: `in capitals followed by ${digit}`,
}));

export const HARD_TOPICS = TOPICS.slice(0, 8);
export const PAIRED_GRADES: Readonly<Record<string, string>> = { dune: 'T', ember: 'K', fjord: 'R' };
export const VALIDATION_BLIND = ['garnet', 'harbor'];
export const HARD_INITIAL_SKILL = `# Specimen codes\n\nAnswer with the specimen code.\n\n${HARMFUL_RULE}\n${BROAD_RULES[0].text}\n`;

export const HARD_WORLD: HardWorldSpec = { name: 'hard', topics: HARD_TOPICS, grades: PAIRED_GRADES, blind: VALIDATION_BLIND, initialSkill: HARD_INITIAL_SKILL };

/** Digit 8 is right for dune, harbor and kelp (topicCode): the broad rule carries all three. */
export const BROAD_WORLD: HardWorldSpec = {
  name: 'broad',
  topics: ['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord', 'harbor', 'kelp'],
  grades: { ember: 'K', fjord: 'R' },
  blind: ['basalt', 'fjord'],
  initialSkill: `# Specimen codes\n\nAnswer with the specimen code.\n\n${BROAD_RULES[2].text}\n`,
};

/** The locked start (issue #32): the broad start where every family it does not carry needs a grade mark too. */
export const BROAD_PAIRS_WORLD: HardWorldSpec = {
  name: 'broad-pairs',
  topics: BROAD_WORLD.topics,
  grades: { amber: 'M', basalt: 'B', cobalt: 'C', ember: 'K', fjord: 'R' },
  blind: ['basalt', 'fjord'],
  initialSkill: BROAD_WORLD.initialSkill,
  oneCause: true,
};

export function gradeText(topic: string, grades: Readonly<Record<string, string>> = PAIRED_GRADES): string {
  return `- ${topic[0].toUpperCase()}${topic.slice(1)} specimens carry a grade mark: after the number add the mark (${topic} grade ${grades[topic]}).`;
}
export function gradeKey(topic: string, grades: Readonly<Record<string, string>> = PAIRED_GRADES): string {
  return `${topic} grade ${grades[topic]}`;
}

export interface HardWorldItem extends WorldItem {
  split: 'train' | 'val' | 'test';
}

export function hardExpectedAnswer(topic: string, specimen: number, grades: Readonly<Record<string, string>> = PAIRED_GRADES): string {
  const grade = grades[topic];
  return `${topicCode(topic)}-${specimen}${grade ? ` grade ${grade}` : ''}`;
}

/** 120 items with fixed splits: 54 train, 18 validation (none of the blind families), 48 test. */
export function makeHardWorldItems(spec: HardWorldSpec = HARD_WORLD): HardWorldItem[] {
  const n = spec.topics.length;
  return Array.from({ length: 120 }, (_, i) => {
    const topic = spec.topics[i % n];
    const k = Math.floor(i / n) % 5;
    const specimen = 100 + i;
    const blind = spec.blind.includes(topic);
    const split = k < 2 || (k === 2 && blind) ? 'train' : k === 2 ? 'val' : 'test';
    return {
      id: `h${String(i).padStart(3, '0')}`,
      question: `What is the ${topic} code for specimen ${specimen}?`,
      answers: [hardExpectedAnswer(topic, specimen, spec.grades)],
      split,
    };
  });
}

/** A wrong guess at a family's rule: its form, another digit (issue #43's rider). */
export function wrongRuleText(topic: string): string {
  const code = topicCode(topic);
  const wrong = `${code.slice(0, 3)}${(Number(code.slice(3)) + 1) % 10}`;
  return `- For ${topic} specimens, use the prefix ${wrong}: answer ${wrong}-<specimen number>.`;
}

/** The hard worlds' simulated target, without noise: what it answers given the rules the prompt states. */
export function hardTargetAnswer(systemPrompt: string, question: string, spec: HardWorldSpec = HARD_WORLD): string {
  const q = parseQuestion(question);
  if (!q || q.topics.length !== 1) return 'I do not know.';
  const [topic] = q.topics;
  if (systemPrompt.includes(HARMFUL_KEY) && q.specimen % 2 === 0) return 'none';
  const broad = BROAD_RULES.map((b) => ({ ...b, at: systemPrompt.indexOf(b.key) }))
    .filter((b) => b.at >= 0)
    .sort((a, b) => a.at - b.at)[0];
  // A family's first stated prefix rule wins: a wrong guess stated before the right rule hides it (issue #43).
  const stated = new RegExp(`For ${topic} specimens, use the prefix ([A-Z]{3}\\d)`).exec(systemPrompt)?.[1];
  const code = broad ? `${topic.slice(0, 3).toUpperCase()}${broad.digit}` : (stated ?? (systemPrompt.includes(ruleKey(topic)) ? topicCode(topic) : null));
  const grade = spec.grades[topic] && systemPrompt.includes(gradeKey(topic, spec.grades)) ? ` grade ${spec.grades[topic]}` : '';
  return `${code ? `${code}-${q.specimen}` : 'unknown'}${grade}`;
}

/** The answer a world expects for a question, or null when the question is not one of its own. */
export function hardWorldExpected(question: string, spec: HardWorldSpec = HARD_WORLD): string | null {
  const q = parseQuestion(question);
  if (!q || q.topics.length !== 1) return null;
  return hardExpectedAnswer(q.topics[0], q.specimen, spec.grades);
}
