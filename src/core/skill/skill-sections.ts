/**
 * A skill's sections (issue #43 item 4): the parts a person reads by their markdown headings, so
 * each can be masked to measure what it earns, shown beside its lines, or dropped. Sections are
 * cut at the shallowest heading level used more than once (a lone `# Title` above `## ` parts is
 * the preamble's); headings inside code fences are text. The preamble (everything above the first
 * section) is always kept; so is a section holding a protected region (the machinery owns it).
 */
import { findProtectedRegions } from './protected-regions';

export interface SkillSection {
  /** Position among the sections, from 0. */
  index: number;
  /** The heading's text, without its `#`s. */
  title: string;
  /** 1-based, inclusive, as editors count lines: from the heading to the line before the next section. */
  startLine: number;
  endLine: number;
  text: string;
  /** Holds (part of) a protected region: never masked or dropped. */
  protected: boolean;
}

export interface SkillOutline {
  /** The lines above the first section (title, introduction); empty when the skill starts with one. */
  preamble: string;
  sections: SkillSection[];
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;
/** A package's file markers and the protected markers: kept in any masked text, so the file set stays whole. */
const MARKER_LINE = /^\s*<!--.*-->\s*$/;

interface Heading {
  line: number;
  level: number;
  title: string;
}

function headingsOf(lines: readonly string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  lines.forEach((l, i) => {
    const f = FENCE.exec(l);
    if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
    else if (fence === null) {
      const h = HEADING.exec(l);
      if (h) out.push({ line: i, level: h[1].length, title: h[2] });
    }
  });
  return out;
}

/** The level sections are cut at: the shallowest used twice, else the only heading's. */
function sectionLevel(headings: readonly Heading[]): number {
  const count = new Map<number, number>();
  for (const h of headings) count.set(h.level, (count.get(h.level) ?? 0) + 1);
  const twice = [...count].filter(([, n]) => n > 1).map(([level]) => level);
  return twice.length ? Math.min(...twice) : Math.min(...headings.map((h) => h.level));
}

export function skillOutline(skill: string): SkillOutline {
  const lines = skill.split('\n');
  const headings = headingsOf(lines);
  if (!headings.length) return { preamble: skill, sections: [] };
  const level = sectionLevel(headings);
  const starts = headings.filter((h) => h.level <= level);
  // A heading shallower than the section level before the first section (the title) stays in the preamble.
  const first = starts.findIndex((h) => h.level === level);
  const cuts = starts.slice(first);
  const offsets = lineOffsets(lines);
  const regions = findProtectedRegions(skill);
  const sections = cuts.map((h, index): SkillSection => {
    const end = index + 1 < cuts.length ? cuts[index + 1].line : trimmedEnd(lines);
    const from = offsets[h.line];
    const to = offsets[end - 1] + lines[end - 1].length;
    return {
      index,
      title: h.title,
      startLine: h.line + 1,
      endLine: end,
      text: lines.slice(h.line, end).join('\n'),
      protected: regions.some((r) => r.start < to && from < r.end),
    };
  });
  return { preamble: lines.slice(0, cuts[0].line).join('\n'), sections };
}

/** The last line that is not a trailing blank one, counted from 1. */
function trimmedEnd(lines: readonly string[]): number {
  let end = lines.length;
  while (end > 1 && !lines[end - 1].trim()) end--;
  return end;
}

function lineOffsets(lines: readonly string[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const l of lines) {
    out.push(at);
    at += l.length + 1;
  }
  return out;
}

/**
 * The skill with the given sections taken out (their heading and lines; a package's file markers
 * stay). Protected sections are never taken out, whatever is asked.
 */
export function withoutSections(skill: string, outline: SkillOutline, drop: ReadonlySet<number>): string {
  const lines = skill.split('\n');
  const gone = new Set<number>();
  for (const s of outline.sections) {
    if (!drop.has(s.index) || s.protected) continue;
    for (let l = s.startLine - 1; l < s.endLine; l++) if (!MARKER_LINE.test(lines[l])) gone.add(l);
  }
  return lines.filter((_, i) => !gone.has(i)).join('\n');
}
