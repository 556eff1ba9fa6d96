/**
 * The validation stage before ranking (issue #8): edits that can never help are dropped before
 * they take a slot of the step's edit budget — an unknown op (a model echoing a template such as
 * "append|insert_after|replace|delete"), placeholder or empty content, a replace or delete whose
 * target is not in the skill (exact match, as the edit would be skipped), content the skill
 * already states, and exact duplicates. Replaces of the same text are combined into one (only
 * the first could apply: the second would find its target gone). Every drop keeps its reason,
 * for the step inspector.
 */
import { EDIT_OPS, editFile, type Edit } from './edits';
import { findProtectedRegions, removeMarkers } from './protected-regions';
import { bundleFile, hasFileSections, SKILL_ENTRY } from './skill-package';

export const DROP_REASONS = [
  'unknown_op',
  'file_absent',
  'empty_content',
  'placeholder_content',
  'target_absent',
  'target_protected',
  'already_stated',
  'duplicate',
  'combined',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** Words for each reason, as the step inspector shows them. */
export const DROP_REASON_TEXT: Readonly<Record<DropReason, string>> = {
  unknown_op: 'unknown op',
  file_absent: 'names a file the package does not have',
  empty_content: 'no content to add',
  placeholder_content: 'placeholder content',
  target_absent: 'target not in the skill',
  target_protected: 'target inside a protected block',
  already_stated: 'the skill already says this',
  duplicate: 'duplicate of an earlier edit',
  combined: 'combined into an earlier replace of the same text',
};

export interface DroppedEdit {
  /** 0-based position in the screened pool. */
  index: number;
  edit: Edit;
  reason: DropReason;
}

export interface ScreenResult {
  kept: Edit[];
  /** Pool positions of the kept edits, in order. */
  keptIndices: number[];
  dropped: DroppedEdit[];
}

// Template stand-ins a model copies instead of writing text: "...", "<rule>", "[text]", "{content}", "TODO".
const PLACEHOLDER =
  /^(?:\.{2,}|…+|<[^<>\n]{0,40}>|\[[^[\]\n]{0,40}\]|\{\{?[^{}\n]{0,40}\}?\}|todo|tbd|n\/a|placeholder|(?:new |the |your )?(?:content|text|rule|instruction)(?: here)?)$/i;

export function isPlaceholder(text: string): boolean {
  const t = text
    .trim()
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim();
  return t.length > 0 && PLACEHOLDER.test(t);
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Every non-empty line of `content` is already a line of the skill. */
export function alreadyStated(skill: string, content: string): boolean {
  const have = new Set(lines(skill));
  const want = lines(content);
  return want.length > 0 && want.every((l) => have.has(l));
}

/** The text an edit acts on: in a skill package, the file it names (SKILL.md when none); null if absent. */
function scopeOf(skill: string, e: Edit): string | null {
  return hasFileSections(skill) || editFile(e) ? bundleFile(skill, editFile(e) || SKILL_ENTRY) : skill;
}

function reasonFor(bundle: string, e: Edit): DropReason | null {
  if (!(EDIT_OPS as readonly string[]).includes(String(e.op))) return 'unknown_op';
  const skill = scopeOf(bundle, e);
  if (skill === null) return 'file_absent';
  const content = removeMarkers(String(e.content ?? '')).trim();
  const target = typeof e.target === 'string' ? e.target : '';
  const adds = e.op === 'append' || e.op === 'insert_after';
  if (adds && !content) return 'empty_content';
  if ((adds || e.op === 'replace') && isPlaceholder(content)) return 'placeholder_content';
  if (e.op === 'replace' || e.op === 'delete') {
    // Without its target the edit would be skipped when applied: it can only waste a slot.
    if (!target || isPlaceholder(target)) return 'target_absent';
    const at = skill.indexOf(target);
    if (at < 0) return 'target_absent';
    if (findProtectedRegions(skill).some((r) => at < r.end && at + target.length > r.start)) return 'target_protected';
    if (e.op === 'replace' && content === target.trim()) return 'already_stated';
  }
  if (adds && alreadyStated(skill, content)) return 'already_stated';
  return null;
}

/** What makes two edits the same edit: its file, and a delete's target; others', op, target and content. */
function identity(e: Edit): string {
  const content = String(e.content ?? '').trim();
  const target = String(e.target ?? '').trim();
  return `${editFile(e)}\u0000${
    e.op === 'delete'
      ? `delete\u0000${target}`
      : `${String(e.op)}\u0000${e.op === 'append' ? '' : target}\u0000${content}`
  }`;
}

/** Replaces of the same text in the same file are one replace. */
const replaceKey = (e: Edit) => `${editFile(e)}\u0000${String(e.target)}`;

/** Screen a pool of edits against the skill they will be applied to. Pure; order kept. */
export function screenEdits(skill: string, edits: readonly Edit[]): ScreenResult {
  const kept: Edit[] = [];
  const keptIndices: number[] = [];
  const dropped: DroppedEdit[] = [];
  const seen = new Set<string>();
  // Kept replaces by target: a later replace of the same text joins the first one's content.
  const replaces = new Map<string, number>();
  edits.forEach((edit, index) => {
    const reason = reasonFor(skill, edit) ?? (seen.has(identity(edit)) ? 'duplicate' : null);
    if (reason) {
      dropped.push({ index, edit, reason });
      return;
    }
    seen.add(identity(edit));
    const first = edit.op === 'replace' ? replaces.get(replaceKey(edit)) : undefined;
    if (first !== undefined) {
      const into = kept[first];
      const content = String(edit.content ?? '').trim();
      if (
        !String(into.content ?? '')
          .split('\n')
          .map((l) => l.trim())
          .includes(content)
      ) {
        kept[first] = {
          ...into,
          content: `${String(into.content ?? '').trimEnd()}\n${content}`,
          support_count: (into.support_count ?? 1) + (edit.support_count ?? 1),
        };
      }
      dropped.push({ index, edit, reason: 'combined' });
      return;
    }
    if (edit.op === 'replace') replaces.set(replaceKey(edit), kept.length);
    kept.push(edit);
    keptIndices.push(index);
  });
  return { kept, keptIndices, dropped };
}
