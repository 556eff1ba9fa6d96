/**
 * Which files a skill package has is a fact of the run (issue #28 item 2): the paths read at
 * import, never what a model writes. Every change to the skill passes through `keepFileSet` —
 * edits (edits.ts skips one that moves a marker line), whole rewrites (update-modes.ts), the
 * slow-update block and the appendix notes (protected-regions.ts) — and the export through
 * `withFileSet` (package-zip.ts), so the file set the bundle ends with is the one it started with.
 */
import { fileSections, isMarkerLike, markerLines, withSections, type PackageFile } from './skill-package';

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether two texts have the same marker lines, in the same order (so the same file sections). */
export function sameMarkers(a: string, b: string): boolean {
  return sameList(markerLines(a), markerLines(b));
}

/**
 * `text` holding exactly the file sections of `paths`: each path's first section is kept where it
 * is; every other marker-like line is dropped (the text it framed stays, as SKILL.md's); a path
 * with no section gets `fallback`'s text back (when it has one), at `insertAt` (the first protected
 * block, for callers that have them) or at the end.
 */
export function withFileSet(
  text: string,
  paths: readonly string[],
  fallback: readonly PackageFile[],
  insertAt: (text: string) => number = () => -1,
): string {
  const wanted = new Set(paths);
  const kept = new Map<string, { start: number; end: number }>();
  for (const s of fileSections(text)) if (wanted.has(s.path) && !kept.has(s.path)) kept.set(s.path, s);
  const inside = [...kept.values()].sort((a, b) => a.start - b.start);
  const out: string[] = [];
  let at = 0;
  // Between kept sections, every marker-like line goes; a kept section is copied whole.
  for (const s of [...inside, { start: text.length, end: text.length }]) {
    const between = text.slice(at, s.start);
    out.push(
      between.includes('<!--')
        ? between
            .split('\n')
            .filter((line) => !isMarkerLike(line))
            .join('\n')
        : between,
    );
    out.push(text.slice(s.start, s.end));
    at = s.end;
  }
  const cleaned = out.join('');
  const missing = fallback.filter((f) => wanted.has(f.path) && !kept.has(f.path));
  if (!missing.length) return cleaned;
  const cut = insertAt(cleaned);
  if (cut < 0) return withSections(cleaned, missing);
  return `${withSections(cleaned.slice(0, cut), missing)}\n${cleaned.slice(cut)}`;
}

/**
 * The skill after a change, with the file set it had before: `after` itself when its marker lines
 * are the same, else its model-written markers dropped and the files it lost put back unchanged.
 */
export function keepFileSet(before: string, after: string, insertAt?: (text: string) => number): string {
  if (sameMarkers(before, after)) return after;
  const sections = fileSections(before);
  const fallback = sections.map((s) => ({ path: s.path, text: before.slice(s.innerStart, s.innerEnd) }));
  return withFileSet(
    after,
    sections.map((s) => s.path),
    fallback,
    insertAt,
  );
}
