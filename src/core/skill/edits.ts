/**
 * Bounded edits to a skill document (algorithm doc §1.5) — the "weight update".
 * Matching is exact, case-sensitive and first-occurrence; text is spliced by index, never with
 * String.prototype.replace, so `$&`, `$1` or `$$` in model-written content survive verbatim.
 */
import { findProtectedRegions, firstProtectedStart, removeMarkers } from './protected-regions';
import { dropMarkerLines, fileSections, normalisePackagePath, SKILL_ENTRY, type FileSection } from './skill-package';
import { sameMarkers } from './file-set';

export const EDIT_OPS = ['append', 'insert_after', 'replace', 'delete'] as const;
export type EditOp = (typeof EDIT_OPS)[number];

export interface Edit {
  op: EditOp | string;
  content?: string;
  target?: string;
  support_count?: number;
  source_type?: 'failure' | 'success';
  merge_level?: number;
  reflection_type?: string;
  /** Carried from a rejected candidate that improved (credit.ts); shown to the ranker. */
  carried?: boolean;
  /** A skill package's file the edit changes (`references/api.md`); none or `SKILL.md`: the instructions. */
  file?: string;
}

export interface Patch {
  reasoning: string;
  edits: Edit[];
  ranking_details?: { reasoning: string; selected_indices: number[] };
}

export type EditStatus =
  | 'applied_append'
  | 'applied_append_before_protected_region'
  | 'applied_insert_after'
  | 'applied_insert_after_fallback_append'
  | 'applied_insert_after_fallback_before_protected_region'
  | 'applied_replace'
  | 'applied_delete'
  | 'skipped_protected_region'
  | 'skipped_replace_missing_target'
  | 'skipped_replace_target_not_found'
  | 'skipped_delete_missing_target'
  | 'skipped_delete_target_not_found'
  | 'skipped_unknown_op'
  | 'skipped_file_not_found'
  | 'skipped_file_marker'
  | 'error';

export interface EditResult {
  skill: string;
  status: EditStatus;
  error?: string;
}

/** One row of the edit-apply report (1-based index, previews cut at 200 chars). */
export interface EditReportRow {
  index: number;
  op: string;
  /** The package file the edit named, when it named one other than SKILL.md. */
  file?: string;
  target: string;
  content_preview: string;
  status: EditStatus;
  error?: string;
}

export interface EditApplySummary {
  total: number;
  applied: number;
  skipped: number;
  errors: number;
}

export interface PatchResult {
  skill: string;
  report: EditReportRow[];
  summary: EditApplySummary;
}

/** Append `content` at the end, or just before the earliest protected region or file section. */
function placeAppend(
  skill: string,
  content: string,
  sections: readonly FileSection[],
): { skill: string; beforeProtected: boolean } {
  const starts = [firstProtectedStart(skill), sections[0]?.start ?? -1].filter((i) => i >= 0);
  const p = starts.length ? Math.min(...starts) : -1;
  if (p >= 0) {
    return { skill: `${skill.slice(0, p).trimEnd()}\n\n${content}\n\n${skill.slice(p)}`, beforeProtected: true };
  }
  return { skill: `${skill.trimEnd()}\n\n${content}\n`, beforeProtected: false };
}

/**
 * Cut `skill[at, at + len)`. A cut whole line takes its line break along, and the blank lines
 * around it shrink to the larger of the two runs, so deletes leave no stack of empty lines.
 * Only line breaks touching the cut change; the cut never touches a protected region.
 */
export function removeSpan(skill: string, at: number, len: number): string {
  const before = skill.slice(0, at);
  const after = skill.slice(at + len);
  const lead = /\n*$/.exec(before)![0].length;
  const trail = /^\n*/.exec(after)![0].length;
  if (before.length === 0) return after.slice(trail);
  if (after.length === trail) return `${before.slice(0, before.length - lead)}${trail || lead ? '\n' : ''}`;
  if (lead === 0 || trail === 0) return before + after;
  return before.slice(0, before.length - lead) + '\n'.repeat(Math.max(lead, trail)) + after.slice(trail);
}

/** What an edit puts in the skill: trimmed, without region markers or lines that read as file markers. */
function modelContent(edit: Edit): string {
  return dropMarkerLines(removeMarkers(String(edit.content ?? ''))).trim();
}

/** The package file an edit names, normalised; '' for SKILL.md (the instructions). */
export function editFile(edit: Edit): string {
  const file = typeof edit.file === 'string' ? normalisePackagePath(edit.file) : '';
  return file.toLowerCase() === SKILL_ENTRY.toLowerCase() ? '' : file;
}

/**
 * Apply one edit with the reference semantics; never throws. In a skill package (skill-package.ts)
 * an edit naming a file acts on that file's text alone; any other acts on SKILL.md's text and
 * cannot reach into a file section. The content loses any line that reads as a file marker, and an
 * edit whose result has other marker lines than before (one assembled from pieces of text around
 * it) is skipped: the package's files are a fact of the run (file-set.ts).
 */
export function applyEdit(skill: string, edit: Edit): EditResult {
  const r = applyOne(skill, edit);
  if (r.skill !== skill && !sameMarkers(skill, r.skill)) return { skill, status: 'skipped_file_marker' };
  return r;
}

function applyOne(skill: string, edit: Edit): EditResult {
  const sections = fileSections(skill);
  const file = editFile(edit);
  if (!file) return applyInText(skill, edit, sections);
  const section = sections.find((s) => s.path === file);
  if (!section) return { skill, status: 'skipped_file_not_found' };
  const inner = skill.slice(section.innerStart, section.innerEnd);
  const r = applyInText(inner, edit, fileSections(inner));
  if (r.skill === inner) return { ...r, skill };
  const text = r.skill.trim() ? r.skill.replace(/\n*$/, '\n') : '';
  return { ...r, skill: skill.slice(0, section.innerStart) + text + skill.slice(section.innerEnd) };
}

/** The first occurrence of `target` that lies outside every file section; -1 if none. */
function findOutside(skill: string, target: string, sections: readonly FileSection[]): number {
  let from = 0;
  for (;;) {
    const at = skill.indexOf(target, from);
    const inside = sections.find((s) => at < s.end && at + target.length > s.start);
    if (at < 0 || !inside) return at;
    from = Math.max(at + 1, inside.end);
  }
}

function applyInText(skill: string, edit: Edit, sections: readonly FileSection[]): EditResult {
  try {
    const content = modelContent(edit);
    const target = typeof edit.target === 'string' ? edit.target : '';
    const at = target ? findOutside(skill, target, sections) : -1;
    const regions = at >= 0 ? [...findProtectedRegions(skill), ...sections] : [];
    // The reference refuses, for every op, a target that starts inside a region; we also refuse one
    // that runs into a region, so no edit can change protected text — except for an append, whose
    // target is unused (issue #20 item 25).
    const reach = edit.op === 'append' ? 1 : target.length;
    if (regions.some((r) => at < r.end && at + reach > r.start)) {
      return { skill, status: 'skipped_protected_region' };
    }
    switch (edit.op) {
      case 'append': {
        const r = placeAppend(skill, content, sections);
        return {
          skill: r.skill,
          status: r.beforeProtected ? 'applied_append_before_protected_region' : 'applied_append',
        };
      }
      case 'insert_after': {
        if (at < 0) {
          const r = placeAppend(skill, content, sections);
          return {
            skill: r.skill,
            status: r.beforeProtected
              ? 'applied_insert_after_fallback_before_protected_region'
              : 'applied_insert_after_fallback_append',
          };
        }
        const nl = skill.indexOf('\n', at + target.length);
        const cut = nl >= 0 ? nl + 1 : skill.length;
        if (regions.some((r) => r.start < cut && cut < r.end)) return { skill, status: 'skipped_protected_region' };
        return { skill: `${skill.slice(0, cut)}\n${content}\n${skill.slice(cut)}`, status: 'applied_insert_after' };
      }
      case 'replace': {
        if (!target) return { skill, status: 'skipped_replace_missing_target' };
        if (at < 0) return { skill, status: 'skipped_replace_target_not_found' };
        const replaced = content
          ? skill.slice(0, at) + content + skill.slice(at + target.length)
          : removeSpan(skill, at, target.length);
        return { skill: replaced, status: 'applied_replace' };
      }
      case 'delete': {
        if (!target) return { skill, status: 'skipped_delete_missing_target' };
        if (at < 0) return { skill, status: 'skipped_delete_target_not_found' };
        return { skill: removeSpan(skill, at, target.length), status: 'applied_delete' };
      }
      default:
        return { skill, status: 'skipped_unknown_op' };
    }
  } catch (e) {
    return { skill, status: 'error', error: e instanceof Error ? e.message : String(e) };
  }
}

/** The skill with every edit of a bundle but one: what that edit alone carried, by its absence. */
export function withoutEdit(skill: string, edits: readonly Edit[], index: number): string {
  return applyPatch(
    skill,
    edits.filter((_, i) => i !== index),
  ).skill;
}

/** Apply edits in order; each edit sees the result of the previous ones. */
export function applyPatch(skill: string, edits: readonly Edit[]): PatchResult {
  let current = skill;
  const report: EditReportRow[] = [];
  edits.forEach((edit, i) => {
    const r = applyEdit(current, edit);
    current = r.skill;
    report.push({
      index: i + 1,
      op: String(edit.op ?? ''), // a missing op reads as the reference's empty default
      ...(editFile(edit) ? { file: editFile(edit) } : {}),
      target: String(edit.target ?? '').slice(0, 200),
      // What the edit put in the skill: trimmed, with any marker stripped (as applyEdit does).
      content_preview: modelContent(edit).slice(0, 200),
      status: r.status,
      ...(r.error ? { error: r.error } : {}),
    });
  });
  return { skill: current, report, summary: summariseReport(report) };
}

export function summariseReport(report: readonly EditReportRow[]): EditApplySummary {
  return {
    total: report.length,
    applied: report.filter((r) => r.status.startsWith('applied')).length,
    skipped: report.filter((r) => r.status.startsWith('skipped')).length,
    errors: report.filter((r) => r.status === 'error').length,
  };
}
