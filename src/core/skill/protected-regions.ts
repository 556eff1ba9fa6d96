/**
 * Protected regions of a skill document (algorithm doc §1.4, §3.6 step 7, §3.8).
 * The machinery owns them; ordinary edits may never touch what lies inside. Whatever a block
 * change does, the skill keeps its package files (file-set.ts).
 */
import { keepFileSet } from './file-set';
import { dropMarkerLines } from './skill-package';
import { joinCuts, removeAll } from './text-cuts';

export const SLOW_UPDATE_START = '<!-- SLOW_UPDATE_START -->';
export const SLOW_UPDATE_END = '<!-- SLOW_UPDATE_END -->';
export const APPENDIX_START = '<!-- APPENDIX_START -->';
export const APPENDIX_END = '<!-- APPENDIX_END -->';

export const MARKERS = [SLOW_UPDATE_START, SLOW_UPDATE_END, APPENDIX_START, APPENDIX_END] as const;

const PAIRS = [
  [SLOW_UPDATE_START, SLOW_UPDATE_END],
  [APPENDIX_START, APPENDIX_END],
] as const;

export type RegionKind = 'slow_update' | 'appendix';

/** A protected span: from the start marker up to the end of the end marker (exclusive). */
export interface ProtectedRegion {
  kind: RegionKind;
  start: number;
  end: number;
}

/** Regions whose start and end markers both exist (first start, first end after it). */
export function findProtectedRegions(skill: string): ProtectedRegion[] {
  const regions: ProtectedRegion[] = [];
  PAIRS.forEach(([startMarker, endMarker], i) => {
    const start = skill.indexOf(startMarker);
    if (start < 0) return;
    const endAt = skill.indexOf(endMarker, start);
    if (endAt < 0) return;
    regions.push({ kind: i === 0 ? 'slow_update' : 'appendix', start, end: endAt + endMarker.length });
  });
  return regions;
}

/** Whether a position lies inside a protected region (`start <= pos < end`). */
export function isInProtectedRegion(skill: string, pos: number): boolean {
  return findProtectedRegions(skill).some((r) => r.start <= pos && pos < r.end);
}

/** Index of the earliest protected start marker, or -1. */
export function firstProtectedStart(skill: string): number {
  const found = [SLOW_UPDATE_START, APPENDIX_START].map((m) => skill.indexOf(m)).filter((i) => i >= 0);
  return found.length ? Math.min(...found) : -1;
}

/** Remove every marker string from model-written text so it cannot forge a region. */
export function removeMarkers(text: string): string {
  // Also the markers removing one would join ("<!-- SLOW_UPDATE_<!-- SLOW_UPDATE_START -->START -->"
  // hides a marker inside a marker), in one pass.
  return removeAll(text, MARKERS);
}

/** The text inside the slow-update block, trimmed; '' when there is none. */
export function getSlowUpdateContent(skill: string): string {
  const start = skill.indexOf(SLOW_UPDATE_START);
  if (start < 0) return '';
  const end = skill.indexOf(SLOW_UPDATE_END, start);
  if (end < 0) return '';
  return skill.slice(start + SLOW_UPDATE_START.length, end).trim();
}

/** Epoch-1 placeholder: append an empty slow-update block unless both markers exist. */
export function injectEmptySlowUpdate(skill: string): string {
  if (skill.includes(SLOW_UPDATE_START) && skill.includes(SLOW_UPDATE_END)) return skill;
  return keepFileSet(skill, `${skill.trimEnd()}\n\n${SLOW_UPDATE_START}\n${SLOW_UPDATE_END}\n`, firstProtectedStart);
}

/**
 * Replace the slow-update block (§3.6 step 7): remove every START…END span, then any unpaired
 * marker on its own (the reference cuts from an orphan START to the end of the text, destroying
 * skill text; here an unpaired marker is no block), then append exactly one block at the end.
 * Unlike the reference, runs of blank lines are collapsed only where a block was removed,
 * so the rest of the body keeps its bytes (and its hash).
 */
export function replaceSlowUpdateBlock(skill: string, content: string): string {
  let body = joinCuts(spansCut(skill, SLOW_UPDATE_START, SLOW_UPDATE_END));
  body = withoutMarkers(body, [SLOW_UPDATE_START, SLOW_UPDATE_END]);
  // Model-written guidance: no line of it may open or close a package file (file-set.ts).
  const inner = dropMarkerLines(removeMarkers(content)).trim();
  return keepFileSet(
    skill,
    `${body.trimEnd()}\n\n${SLOW_UPDATE_START}\n${inner}\n${SLOW_UPDATE_END}\n`,
    firstProtectedStart,
  );
}

/** The pieces of a text around its START…END spans (each START with the first END after it), in one pass. */
function spansCut(text: string, start: string, end: string): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (;;) {
    const s = text.indexOf(start, at);
    const e = s < 0 ? -1 : text.indexOf(end, s);
    if (e < 0) break;
    pieces.push(text.slice(at, s));
    at = e + end.length;
  }
  pieces.push(text.slice(at));
  return pieces;
}

/** Remove all protected regions and stray markers (for density and length measures of the body). */
export function stripProtectedRegions(skill: string): string {
  let out = skill;
  for (const [startMarker, endMarker] of PAIRS) out = spansCut(out, startMarker, endMarker).join('');
  return removeMarkers(out); // an unpaired marker is no region, and none of its words are the body's
}

/** The appendix block's markers when START comes first and an END follows it; otherwise none. */
function appendixSpan(skill: string): { s: number; e: number } | null {
  const s = skill.indexOf(APPENDIX_START);
  const e = s < 0 ? -1 : skill.indexOf(APPENDIX_END, s);
  return e < 0 ? null : { s, e };
}

/** The text with every occurrence of these markers cut out (and the blank lines around them joined). */
function withoutMarkers(skill: string, markers: readonly string[]): string {
  let body = skill;
  for (const marker of markers) {
    if (!body.includes(marker)) continue;
    body = joinCuts(body.split(marker));
    // A marker the join itself made (its halves around a cut one) goes too.
    if (body.includes(marker)) body = removeAll(body, [marker]);
  }
  return body;
}

/**
 * Skill-aware reflection (§3.8): ensure an appendix block exists at the end. A hand-edited skill
 * whose appendix markers are unpaired or reversed holds no block: the stray markers go, the text
 * around them stays body text (issue #20 item 5), as with the slow-update block.
 */
export function injectEmptyAppendix(skill: string): string {
  if (appendixSpan(skill)) return skill;
  const body = withoutMarkers(skill, [APPENDIX_START, APPENDIX_END]);
  const placed = `${body.trimEnd()}\n\n${APPENDIX_START}\n## Execution Notes Appendix\n${APPENDIX_END}\n`;
  return keepFileSet(skill, placed, firstProtectedStart);
}

/**
 * The notes of the appendix block: every non-empty line but its heading, with a list marker
 * ("- ", "* ", "+ ", "1. ") taken off. Lines written without a marker are notes too (a user may
 * have edited the block by hand); dropping them would lose their text on the next merge.
 */
export function getAppendixNotes(skill: string): string[] {
  const span = appendixSpan(skill);
  if (!span) return [];
  return skill
    .slice(span.s + APPENDIX_START.length, span.e)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^#{1,6}(?:\s|$)/.test(l)) // headings, whatever their level, are not notes
    .map((l) => l.replace(/^(?:-+\s*|[*+]\s+|\d+[.)]\s+)/, '').trim()) // "-note" is a bullet too
    .filter(Boolean);
}

/** The dedup key of an appendix note: whitespace collapsed, trailing " .;:,_-" stripped, case-folded. */
export function appendixNoteKey(note: string): string {
  return note
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[ .;:,_-]+$/, '')
    .toLowerCase();
}

/** The appendix holding exactly these notes (deduplicated, in order); creates the block if needed. */
export function replaceAppendixNotes(skill: string, notes: readonly string[]): string {
  const withBlock = injectEmptyAppendix(skill);
  const { s, e } = appendixSpan(withBlock)!;
  const emptied = `${withBlock.slice(0, s)}${APPENDIX_START}\n## Execution Notes Appendix\n${withBlock.slice(e)}`;
  return mergeAppendixNotes(emptied, notes);
}

/** Merge notes into the appendix with order-preserving dedup; creates the block if needed. */
export function mergeAppendixNotes(skill: string, notes: readonly string[]): string {
  const withBlock = injectEmptyAppendix(skill);
  const merged: string[] = [];
  const seen = new Set<string>();
  for (const note of [...getAppendixNotes(withBlock), ...notes.map((n) => removeMarkers(n).trim())]) {
    const key = appendixNoteKey(note);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    merged.push(note.replace(/\s*\n\s*/g, ' '));
  }
  const { s, e } = appendixSpan(withBlock)!;
  const block = [APPENDIX_START, '## Execution Notes Appendix', ...merged.map((n) => `- ${n}`), ''].join('\n');
  // Each note is one "- " line, so none reads as a file marker; the file set is kept all the same.
  return keepFileSet(skill, withBlock.slice(0, s) + block + withBlock.slice(e), firstProtectedStart);
}
