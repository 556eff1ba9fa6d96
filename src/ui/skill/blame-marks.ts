// Edit blame as editor marks: one per line, a coloured bar in the gutter by kind of source and
// a hover that says which step wrote the line, with its edit, the analysts' reasoning and items.
import type { BlameSource, SkillBlame } from '../../worker/api-types';
import { bundleLineFiles, SKILL_ENTRY } from '../../core/skill/skill-package';

export interface LineMark {
  line: number;
  className: string;
  /** Markdown for the hover. */
  hover: string;
}

/**
 * Model and dataset text as plain text inside Monaco's markdown hover (issue #20 item 13): every
 * ASCII punctuation mark backslash-escaped (CommonMark allows it), so no link, autolink
 * (`https\://`, `www\.`), emphasis, code or HTML can form from it.
 */
export function plainMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

const clip = (s: string, n = 240) => plainMarkdown(s.length > n ? `${s.slice(0, n)}…` : s);
const items = (ids: readonly string[] | undefined) =>
  ids?.length ? plainMarkdown(`${ids.slice(0, 8).join(', ')}${ids.length > 8 ? `, … (${ids.length})` : ''}`) : '';

/** The one-line description of a source ("Step 3 · accept_new_best"). */
export function sourceTitle(s: BlameSource): string {
  return s.action ? `${s.label} · ${s.action.replace(/_/g, ' ')}` : s.label;
}

export function blameMarks(blame: SkillBlame): LineMark[] {
  return blame.lines.map((l) => {
    const s = blame.sources[l.key];
    const parts = [`**${plainMarkdown(sourceTitle(s))}**`];
    if (l.edit) {
      const { op, source, support, content } = l.edit;
      parts.push(`Edit: ${plainMarkdown(`${op} (${source}, support ${support})`)} — ${clip(content)}`);
    }
    for (const a of l.analysts ?? []) parts.push(`Analyst: ${clip(a)}`);
    if (!l.analysts?.length && s.reasoning) parts.push(`Why: ${clip(s.reasoning)}`);
    if (s.changeSummary?.length) parts.push(`Rewrite: ${clip(s.changeSummary.join('; '))}`);
    if (s.failingItems?.length) parts.push(`Failing train items: ${items(s.failingItems)}`);
    if (s.fixedItems?.length) parts.push(`Fixed on validation: ${items(s.fixedItems)}`);
    return { line: l.line, className: `blame-bar blame-${s.kind}`, hover: parts.join('\n\n') };
  });
}

/** A blame range cut at file boundaries: in a package each piece is named by its file and its lines there. */
export function rangesByFile(ranges: SkillBlame['ranges'], skill: string) {
  const at = bundleLineFiles(skill);
  const named = at.some((l) => l.path !== SKILL_ENTRY);
  return ranges.flatMap((r) => {
    const pieces: { start: number; end: number; key: string; label: string }[] = [];
    for (let n = r.start; n <= r.end; n++) {
      const f = at[n - 1];
      if (!f || (named && f.line === 0)) continue; // a marker line is no file's text
      const last = pieces[pieces.length - 1];
      if (last && last.end === n - 1 && at[last.start - 1].path === f.path) last.end = n;
      else pieces.push({ start: n, end: n, key: r.key, label: '' });
    }
    for (const p of pieces) {
      const [a, b] = [at[p.start - 1], at[p.end - 1]];
      const lines = named ? [a.line, b.line] : [p.start, p.end];
      const span = lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}–${lines[1]}`;
      p.label = named ? `${a.path}, ${span}` : span[0].toUpperCase() + span.slice(1);
    }
    return pieces;
  });
}
