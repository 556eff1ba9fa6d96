/**
 * The prompt set: every optimizer prompt and rollout preset as {system, user} templates.
 * Files come from prompts/*.md (read by Vite in the browser, from disk in Node); a run may
 * override any of them by name, and the overrides are stored with the run.
 */
import { parseRolloutTemplate, type RolloutTemplate } from '../core/config/templates';

export const PROMPT_NAMES = [
  'reflect_failure',
  'reflect_success',
  'merge_failure',
  'merge_success',
  'merge_final',
  'rank_edits',
  'repair_edits',
  'reflect_suggestions',
  'merge_suggestions',
  'rank_suggestions',
  'rewrite_skill',
  'reflect_full_rewrite',
  'merge_full_rewrite',
  'appendix_consolidate',
  'lr_decision',
  'slow_update',
  'meta_skill',
  'judge',
  'user_simulator',
  'feedback_edits',
  'describe_skill',
  'meta_block',
  'step_buffer',
  'rollout-qa',
  'rollout-mcq',
  'rollout-raw',
  'rollout-trigger',
] as const;
export type PromptName = (typeof PROMPT_NAMES)[number];
export type PromptSet = Record<PromptName, RolloutTemplate>;

/** Build the set from file texts keyed by name (file name without .md); overrides win. */
export function buildPromptSet(files: Record<string, string>, overrides: Record<string, string> = {}): PromptSet {
  const set = {} as PromptSet;
  for (const name of PROMPT_NAMES) {
    const text = overrides[name] ?? files[name];
    if (text === undefined) throw new Error(`prompt "${name}" is missing (expected prompts/${name}.md)`);
    set[name] = parseRolloutTemplate(text);
  }
  return set;
}

/** Map file paths (".../prompts/x.md") to names. */
export function promptFilesByName(byPath: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(byPath).map(([p, t]) => [p.replace(/^.*\/|\.md$/g, ''), t]));
}
