/**
 * Update modes (algorithm doc §3.5): how a step turns analyses into a candidate skill.
 * - patch: analysts propose bounded edits, applied deterministically (the paper's default);
 * - rewrite: analysts propose revise suggestions, the top ones are ranked, and one optimizer
 *   call rewrites the whole skill integrating them;
 * - full_rewrite: each analyst writes a complete replacement skill, merges combine them into
 *   one, and that one is the candidate (no ranking).
 * The gate is the same for all three. Whole-document modes may drop or alter the protected
 * blocks; here the rewritten body always gets the current skill's blocks back, verbatim.
 */
import { findProtectedRegions, removeMarkers, stripProtectedRegions } from './protected-regions';
import { keepFileSet } from './file-set';

export const UPDATE_MODES = ['patch', 'rewrite', 'full_rewrite'] as const;
export type UpdateMode = (typeof UPDATE_MODES)[number];

export const UPDATE_MODE_LABELS: Record<UpdateMode, string> = {
  patch: 'Patch — bounded edits (paper default)',
  rewrite: 'Rewrite from suggestions',
  full_rewrite: 'Full rewrite per minibatch',
};

/** The key under which analysts and merges return their items, by mode (§1.6). */
export const PAYLOAD_KEYS: Record<UpdateMode, 'edits' | 'revise_suggestions' | 'skill_candidates'> = {
  patch: 'edits',
  rewrite: 'revise_suggestions',
  full_rewrite: 'skill_candidates',
};

export const SUGGESTION_TYPES = [
  'add_rule',
  'remove_rule',
  'merge_rules',
  'reorganize',
  'compress',
  'clarify',
] as const;
export const PRIORITY_HINTS = ['high', 'medium', 'low'] as const;

export interface ReviseSuggestion {
  type: (typeof SUGGESTION_TYPES)[number];
  title: string;
  motivation: string;
  instruction: string;
  priority_hint: (typeof PRIORITY_HINTS)[number];
  support_count?: number;
  source_type?: 'failure' | 'success';
  merge_level?: number;
}

export interface SkillCandidate {
  title: string;
  change_summary: string[];
  new_skill: string;
  support_count?: number;
  source_type?: 'failure' | 'success';
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** A suggestion as a model returned it, or null when it says nothing to do. Unknown type/priority fall back. */
export function normaliseSuggestion(raw: unknown): ReviseSuggestion | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const instruction = text(o.instruction);
  const title = text(o.title);
  if (!instruction && !title) return null;
  const type = SUGGESTION_TYPES.find((t) => t === o.type) ?? 'clarify';
  const priority = PRIORITY_HINTS.find((p) => p === o.priority_hint) ?? 'medium';
  const s: ReviseSuggestion = {
    type,
    title: title || instruction.slice(0, 80),
    motivation: text(o.motivation),
    instruction: instruction || title,
    priority_hint: priority,
  };
  if (typeof o.support_count === 'number' && o.support_count > 0) s.support_count = Math.round(o.support_count);
  if (o.source_type === 'failure' || o.source_type === 'success') s.source_type = o.source_type;
  if (typeof o.merge_level === 'number') s.merge_level = o.merge_level;
  return s;
}

/** A replacement skill as a model returned it, or null when its new_skill is empty. */
export function normaliseSkillCandidate(raw: unknown): SkillCandidate | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const newSkill = typeof o.new_skill === 'string' ? o.new_skill : '';
  if (!newSkill.trim()) return null;
  const summary = Array.isArray(o.change_summary) ? o.change_summary.map(text).filter(Boolean) : [];
  const c: SkillCandidate = { title: text(o.title), change_summary: summary, new_skill: newSkill };
  if (typeof o.support_count === 'number' && o.support_count > 0) c.support_count = Math.round(o.support_count);
  if (o.source_type === 'failure' || o.source_type === 'success') c.source_type = o.source_type;
  return c;
}

/** One line per suggestion, as the ranking and step-size prompts show them. */
export function describeSuggestion(s: ReviseSuggestion, i: number): string {
  const q = (v: string) => JSON.stringify(v);
  return `[${i}] type=${s.type}  priority=${s.priority_hint}  title=${q(s.title)}  instruction=${q(s.instruction)}  support=${s.support_count ?? 1}`;
}

/**
 * The candidate from a model-written whole skill: right-trimmed plus one newline (§3.5), with
 * any protected block the model wrote removed and the current skill's blocks put back after
 * the body, verbatim and in their order — a rewrite never owns the epoch guidance or the
 * appendix. Null when the body is empty.
 */
export function finishRewrittenSkill(current: string, written: string): string | null {
  const own = removeMarkers(stripProtectedRegions(written));
  if (!own.trim()) return null;
  // In a skill package, the rewrite keeps the run's files: markers of its own are dropped, and a
  // file it left out comes back as it was (file-set.ts).
  const body = keepFileSet(current, own).trimEnd();
  const blocks = findProtectedRegions(current)
    .sort((a, b) => a.start - b.start)
    .map((r) => current.slice(r.start, r.end));
  return blocks.length ? `${body}\n\n${blocks.join('\n\n')}\n` : `${body}\n`;
}
