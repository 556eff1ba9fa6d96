/**
 * The activation track's data (issue #23 item 4): queries a skill should or should not be loaded
 * for, the convention skill-creator's description loop and skill catalogs use —
 * `[{"query": "…", "should_trigger": true}, …]`. Whether the target would load the skill is asked
 * with the SKILL.md frontmatter `description` (prompts/rollout-trigger.md); training that
 * description is a second track of a run, gated like the body on its own validation queries.
 */
import type { DatasetItem, SplitName } from './dataset-types';
import { shuffled } from '../basics/random';
import { MAX_DESCRIPTION } from '../skill/skill-file';

export interface TriggerQuery {
  id: string;
  query: string;
  shouldTrigger: boolean;
}

export type TriggerSplits = Record<SplitName, string[]>;

/** Where a skill package keeps its trigger queries (the first that exists is read). */
export const TRIGGER_FILES = [
  'evals/trigger-evals.json',
  'evals/trigger_evals.json',
  'evals/trigger/eval_queries.json',
  'evals/eval_queries.json',
  'evals/eval_set.json',
];

/** Item ids of trigger queries never meet a dataset's (they share the run's rollout store). */
const ITEM_PREFIX = 'trigger:';

export type TriggerParse = { ok: true; queries: TriggerQuery[] } | { ok: false; problems: string[] };

/** Read trigger queries: a JSON list (or `{queries: [...]}`) of `{query, should_trigger, id?}`. */
export function parseTriggerQueries(text: string): TriggerParse {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return { ok: false, problems: [`not valid JSON (${e instanceof Error ? e.message : String(e)})`] };
  }
  const rows = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { queries?: unknown }).queries)
      ? (data as { queries: unknown[] }).queries
      : null;
  if (!rows) return { ok: false, problems: ['expected a list of {"query", "should_trigger"} objects'] };
  const problems: string[] = [];
  const queries: TriggerQuery[] = [];
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const where = `query ${i + 1}`;
    if (!row || typeof row !== 'object' || Array.isArray(row)) return void problems.push(`${where}: not an object`);
    const r = row as Record<string, unknown>;
    const query = typeof r.query === 'string' ? r.query.trim() : '';
    if (!query) problems.push(`${where}, field "query": missing or empty`);
    const should = r.should_trigger ?? r.shouldTrigger;
    if (typeof should !== 'boolean') problems.push(`${where}, field "should_trigger": must be true or false`);
    const id =
      r.id === undefined ? `q${i + 1}` : typeof r.id === 'string' || typeof r.id === 'number' ? String(r.id) : null;
    if (id === null) problems.push(`${where}, field "id": must be a string or a number`);
    else if (!id.trim()) problems.push(`${where}, field "id": empty`);
    else if (seen.has(id)) problems.push(`${where}, field "id": "${id}" is used twice`);
    if (id !== null) seen.add(id);
    if (query && typeof should === 'boolean' && id) queries.push({ id, query, shouldTrigger: should });
  });
  if (!problems.length && queries.length < 4)
    problems.push(`${queries.length} queries: the track needs at least 4 (some for training, some to gate on)`);
  if (!problems.length && (!queries.some((q) => q.shouldTrigger) || queries.every((q) => q.shouldTrigger)))
    problems.push('the queries need both kinds: some that should load the skill and some that should not');
  return problems.length ? { ok: false, problems: problems.slice(0, 100) } : { ok: true, queries };
}

/**
 * Train, validation and test queries (2 : 1 : 1), each kind split on its own so every split holds
 * both; the same seed gives the same split.
 */
export function splitTriggerQueries(queries: readonly TriggerQuery[], seed: number): TriggerSplits {
  const splits: TriggerSplits = { train: [], val: [], test: [] };
  for (const kind of [true, false]) {
    const ids = shuffled(
      queries.filter((q) => q.shouldTrigger === kind).map((q) => q.id),
      seed + (kind ? 1 : 2),
    );
    const val = Math.max(1, Math.round(ids.length / 4));
    const test = ids.length >= 3 ? Math.max(1, Math.round(ids.length / 4)) : 0;
    splits.val.push(...ids.slice(0, val).map(itemIdOf));
    splits.test.push(...ids.slice(val, val + test).map(itemIdOf));
    splits.train.push(...ids.slice(val + test).map(itemIdOf));
  }
  return splits;
}

const itemIdOf = (queryId: string) => `${ITEM_PREFIX}${queryId}`;

/**
 * The queries as dataset items for the trigger template (prompts/rollout-trigger.md): the
 * question is the user's request, the expected answer "yes" (load the skill) or "no"; the skill's
 * name is a field the template shows beside the description.
 */
export function triggerItems(queries: readonly TriggerQuery[], skillName: string): DatasetItem[] {
  return queries.map((q) => ({
    id: itemIdOf(q.id),
    question: q.query,
    answers: [q.shouldTrigger ? 'yes' : 'no'],
    fields: { skill_name: skillName },
  }));
}

/** A description as the frontmatter may hold it: one line, no angle brackets, at most 1 024 characters. */
export function cleanDescription(text: string): string {
  const flat = text.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_DESCRIPTION) return flat;
  // Cut at the last word boundary, unless that loses more than half.
  const cut = flat.slice(0, MAX_DESCRIPTION);
  const end = cut.lastIndexOf(' ');
  return end > MAX_DESCRIPTION / 2 ? cut.slice(0, end) : cut;
}

/** The description an activation track kept, when it changed it; undefined when it kept the starting one. */
export function trainedDescription(
  a: { description: string; initialDescription: string } | undefined,
): string | undefined {
  return a && a.description !== a.initialDescription ? a.description : undefined;
}
