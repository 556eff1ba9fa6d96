// Edit blame as editor marks: one per line, a coloured bar in the gutter by kind of source and
// a hover that says which step wrote the line, with its edit, the analysts' reasoning and items.
import type { BlameSource, SkillBlame } from '../../worker/api-types';

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
