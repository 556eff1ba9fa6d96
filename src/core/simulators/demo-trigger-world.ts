/**
 * The trigger world (issue #23 item 4, the activation track), behind the test LLM server and the
 * in-page demo: a skill that gives specimen codes, and requests it should or should not be loaded
 * for. A simulation, never a real model.
 * - Should load: "What is the cobalt code for specimen 112?" for eight families.
 * - Near misses (should not): questions that name a family but want no code ("What colour is
 *   amber?"); an agent loads the skill for them unless the description says it is only for codes.
 * - Unrelated (should not): nothing in the description matches them unless it claims everything.
 * The simulated agent decides from the description alone (families named, "any specimen family",
 * "only for specimen codes", "any question"); the simulated describer reads the misfires and
 * rewrites the description — and, being fallible, sometimes writes an over-broad one ("any
 * question") or forgets the families it had: the track's gate must keep those out.
 */
import { TOPICS } from './demo-world';
import type { TriggerQuery } from '../dataset/trigger-queries';

export const TRIGGER_FAMILIES = TOPICS.slice(0, 8);
export const TRIGGER_START_DESCRIPTION = 'Answers questions about amber and basalt specimens.';

const UNRELATED = [
  'What is the capital of France?',
  'Write a haiku about rain.',
  'How do I reverse a list in Python?',
  'Summarise this meeting in three bullet points.',
  'What is 17 times 23?',
  'Translate "good morning" into Spanish.',
  'Recommend a book about the history of tea.',
  'How long should I boil an egg?',
];

/** 40 queries: 16 that should load the skill, 8 near misses, 8 unrelated (and 8 more near misses). */
export function triggerWorldQueries(): TriggerQuery[] {
  const out: TriggerQuery[] = [];
  TRIGGER_FAMILIES.forEach((t, i) => {
    out.push({ id: `code-${t}-a`, query: `What is the ${t} code for specimen ${110 + i}?`, shouldTrigger: true });
    out.push({ id: `code-${t}-b`, query: `Give me the ${t} code for specimen ${150 + i}.`, shouldTrigger: true });
    out.push({ id: `near-${t}-a`, query: `What colour is ${t} usually?`, shouldTrigger: false });
    out.push({ id: `near-${t}-b`, query: `Where does the word ${t} come from?`, shouldTrigger: false });
  });
  UNRELATED.forEach((q, i) => out.push({ id: `other-${i + 1}`, query: q, shouldTrigger: false }));
  return out;
}

const isCodeQuery = (q: string) => /\bcode\b/i.test(q) && /\bspecimen\b/i.test(q);
const familyOf = (q: string) => TRIGGER_FAMILIES.find((t) => new RegExp(`\\b${t}\\b`, 'i').test(q));

/** The right decision for a query of this world: load the skill for a specimen code only. */
export function shouldLoad(query: string): boolean {
  return isCodeQuery(query) && familyOf(query) !== undefined;
}

/** The simulated agent: would it load the skill with this description for this request? */
export function agentLoads(description: string, query: string): boolean {
  if (/\bany (question|request)\b|\banything\b/i.test(description)) return true;
  const family = familyOf(query);
  if (!family) return false;
  const covered = /\bany specimen family\b/i.test(description) || new RegExp(`\\b${family}\\b`, 'i').test(description);
  if (!covered) return false;
  const codesOnly = /\bonly for specimen codes\b/i.test(description);
  return isCodeQuery(query) || !codesOnly;
}

/** Whether a target prompt is the trigger template's (prompts/rollout-trigger.md) rather than a task's. */
export const isTriggerPrompt = (system: string) => system.includes('One skill is installed:');

/** The simulated agent's decision on the trigger template's prompt: "yes" (load the skill) or "no". */
export function triggerDecision(system: string, user: string): 'yes' | 'no' {
  const description = /^description: (.*)$/m.exec(system)?.[1] ?? '';
  return agentLoads(description, user.trim()) ? 'yes' : 'no';
}

/** The target's reply to the trigger template. */
export function triggerReply(system: string, user: string): string {
  return `Checking the description.\n<answer>${triggerDecision(system, user)}</answer>`;
}

/** The expected answer of a trigger query (what a noisy agent's lucky guess says). */
export const triggerExpected = (user: string) => (shouldLoad(user.trim()) ? 'yes' : 'no');

/**
 * The simulated describer (prompts/describe_skill.md): families it missed are added (three or more
 * at once make it general: "any specimen family"), near misses make it say "only for specimen
 * codes". `draw` ∈ [0, 1) decides its slips: below `slip` an over-broad description, below twice
 * `slip` one that forgets the families it had.
 */
export function describerReply(user: string, draw: number, slip: number): { reasoning: string; description: string } {
  const current = /## Current description\n([\s\S]*?)\n\n## /.exec(user)?.[1]?.trim() ?? '';
  const misfires = /## Requests it fired wrongly on\n([\s\S]*?)(?:\n\n## |$)/.exec(user)?.[1] ?? '';
  const lines = misfires.split('\n').filter((l) => l.startsWith('- "'));
  const missed = lines
    .filter((l) => l.includes('— should load'))
    .map((l) => familyOf(l))
    .filter(Boolean) as string[];
  const wrongly = lines.some((l) => l.includes('— should not load'));
  if (draw < slip)
    return {
      reasoning: 'Broaden it so it is never missed.',
      description: 'Use for any question about specimens, materials or anything else.',
    };
  const had = draw < 2 * slip ? [] : TRIGGER_FAMILIES.filter((t) => new RegExp(`\\b${t}\\b`, 'i').test(current));
  const general = /\bany specimen family\b/i.test(current) || new Set([...had, ...missed]).size >= 5;
  const families = [...new Set([...had, ...missed])];
  const scope = general ? 'any specimen family' : families.join(', ');
  const only = wrongly || /\bonly for specimen codes\b/i.test(current);
  return {
    reasoning: `Missed ${missed.length} code requests; ${wrongly ? 'loaded for near misses' : 'no near misses'}.`,
    description: `Gives the specimen code for ${scope}.${only ? ' Only for specimen codes, not for other questions about these materials.' : ''}`,
  };
}
