/**
 * The A/A world of bench:quality (issue #32): nothing to learn, so any accept is a false one. The
 * noisy target of the hard world (it misses 10 % of the answers it knows and guesses 5 % of the
 * others), a starting skill right on half the items (the rules of four families of eight), and an
 * optimizer that proposes only neutral rewordings of the rules the skill has: every candidate
 * teaches exactly what the current skill teaches, so none is truly better or worse — but each one
 * is a new text, and the target draws its noise afresh for it.
 */
import { hashFraction, jsonArrayAfter, section, dedupeEdits, type SimEdit } from './sim-text';
import { HARD_TOPICS, TOPICS, ruleText, topicCode, type HardWorldSpec } from './rule-world';

/** The four families the starting skill knows. */
const KNOWN = HARD_TOPICS.slice(0, 4);

export const AA_WORLD: HardWorldSpec = {
  name: 'aa',
  topics: HARD_TOPICS,
  grades: {},
  blind: [],
  initialSkill: `# Specimen codes\n\nAnswer with the specimen code.\n\n${KNOWN.map(ruleText).join('\n')}\n`,
};

/** Ways to state a family's rule: each keeps the phrase the target looks for ("prefix AMB7"). */
const WORDINGS = [
  (t: string, c: string) => `- For ${t} specimens, use the prefix ${c}: answer ${c}-<specimen number>.`,
  (t: string, c: string) => `- ${t[0].toUpperCase()}${t.slice(1)} specimens take the prefix ${c}; the answer reads ${c}-<number>.`,
  (t: string, c: string) => `- Whenever the family is ${t}, write the prefix ${c} and then the specimen number (${c}-<number>).`,
  (t: string, c: string) => `- A ${t} specimen's code: the prefix ${c}, a hyphen, its number.`,
];

/** Neutral notes an analyst may add: they change the text, never what the target knows. */
const NOTES = [
  '- Read the question to the end before answering.',
  '- Give the code alone inside the answer tags.',
  '- Keep the answer on one line.',
];

/** The skill's rule lines, with their family (any rule world's: generated worlds draw from every family). */
function ruleLines(skill: string): { line: string; topic: string }[] {
  return skill
    .split('\n')
    .flatMap((line) => {
      const topic = TOPICS.find((t) => line.includes(`prefix ${topicCode(t)}`));
      return topic && line.startsWith('- ') ? [{ line, topic }] : [];
    });
}

/** An analyst's neutral proposals: reword one or two rule lines, now and then add a note. */
function rewordings(user: string, skill: string): SimEdit[] {
  const lines = ruleLines(skill);
  const edits: SimEdit[] = [];
  for (let k = 0; k < 2 && lines.length; k++) {
    const pick = lines[Math.floor(hashFraction(`line ${k}\n${user}`) * lines.length)];
    const wording = WORDINGS[Math.floor(hashFraction(`wording ${k}\n${user}`) * WORDINGS.length)];
    const content = wording(pick.topic, topicCode(pick.topic));
    if (content !== pick.line) edits.push({ op: 'replace', target: pick.line, content });
  }
  const note = NOTES[Math.floor(hashFraction(`note\n${user}`) * NOTES.length)];
  if (hashFraction(`add note\n${user}`) < 0.3 && !skill.includes(note)) edits.push({ op: 'append', content: note });
  return dedupeEdits(edits.map((e) => ({ ...e, support_count: 1, source_type: 'failure' })));
}

/** An analyst's answer that proposes only neutral rewordings (generated worlds' useless analysts give it too). */
export function neutralReflection(user: string): unknown {
  return {
    batch_size: 5,
    failure_summary: [{ failure_type: 'wording', count: 1, description: 'the rules could read more clearly' }],
    patch: { reasoning: 'clearer wording', edits: rewordings(user, section(user, '## Current Skill')) },
  };
}

/** The A/A world's optimizer, as an optimizerHook of the test server: undefined leaves a stage to the rule world's. */
export function aaOptimizerAnswer(stage: string, _system: string, user: string): unknown {
  switch (stage) {
    case 'reflect_failure':
    case 'reflect_success':
      return neutralReflection(user);
    case 'merge_failure':
    case 'merge_success':
    case 'merge_final': {
      const heading = stage === 'merge_final' ? '## Two pre-merged groups' : '## Patches to merge';
      const groups = jsonArrayAfter(user, heading) as { edits?: SimEdit[] }[];
      return { reasoning: 'merged', edits: dedupeEdits(groups.flatMap((g) => g.edits ?? [])) };
    }
    case 'repair_edits':
      return { reasoning: 'nothing to repair', drop_indices: [], add_edits: [] };
    case 'slow_update':
      return { reasoning: 'clearer wording', slow_update_content: NOTES[Math.floor(hashFraction(user) * NOTES.length)] };
    default:
      return undefined;
  }
}
