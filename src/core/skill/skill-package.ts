/**
 * A skill package in the Agent Skills layout (issue #23): `SKILL.md` plus `references/*.md`,
 * trained as one text — the *bundle*. SKILL.md's body comes first; each reference file follows
 * between its own markers:
 *
 *   <!-- FILE: references/api.md -->
 *   …the file's text…
 *   <!-- END FILE: references/api.md -->
 *
 * Everything outside the file sections is SKILL.md's (the slow-update and appendix blocks, which
 * the machinery appends at the end, included). So a single `.md` skill is a bundle with no
 * sections, and every stage that reads or hashes the skill sees every file. The target and the
 * analysts get the bundle as it is: the markers name each file. An edit names the file it
 * changes (`file`, see edits.ts); the markers themselves are never model-editable.
 *
 * A marker counts only as a whole line (issue #28): text that merely mentions one is text. Every
 * scan here is one pass over the lines. Which files a run has is a fact of the run, kept by
 * file-set.ts wherever the skill changes; a file read at import may not hold a marker-like line.
 */

/** The package's instructions: what a bundle's text outside file sections becomes. */
export const SKILL_ENTRY = 'SKILL.md';

export interface PackageFile {
  /** Path inside the package, `/`-separated, e.g. `references/api.md`. */
  path: string;
  text: string;
}

/** A file section of a bundle: [start, end) spans both markers; [innerStart, innerEnd) the text. */
export interface FileSection {
  path: string;
  start: number;
  end: number;
  innerStart: number;
  innerEnd: number;
}

const openMarker = (path: string) => `<!-- FILE: ${path} -->`;
const closeMarker = (path: string) => `<!-- END FILE: ${path} -->`;
const OPEN_LINE = /^<!-- FILE: (.+) -->$/;
/** A line that reads as a file marker, well formed or not (spacing, case): never model-written. */
const MARKER_LIKE = /^\s*<!--\s*(?:END\s+)?FILE\s*:.*-->\s*$/i;

/** Whether a line (without its line break) reads as a file marker, well formed or not. */
export function isMarkerLike(line: string): boolean {
  return line.includes('<!--') && MARKER_LIKE.test(line);
}

/** Where the Agent Skills convention keeps a skill's eval cases inside its folder. */
export const PACKAGE_EVALS = 'evals/evals.json';

/** The trained files of a package: markdown under `references/`. */
export function isTrainedPath(path: string): boolean {
  return /^references\/(?:[^/]+\/)*[^/]+\.md$/i.test(path);
}

/** A path as the package writes it: `/`-separated, no leading `./` or `/`, no `..`. */
export function normalisePackagePath(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/|\/)+/, '')
    .split('/')
    .filter((part) => part && part !== '.' && part !== '..')
    .join('/');
}

/** Files appended to a text as sections, each between its markers. */
export function withSections(text: string, files: readonly PackageFile[]): string {
  const sections = files.map((f) => `${openMarker(f.path)}\n${f.text.trim()}\n${closeMarker(f.path)}`);
  return `${[text.trimEnd(), ...sections].join('\n\n')}\n`;
}

/** The bundle of SKILL.md's body and the trained reference files, in the order given. */
export function bundlePackage(body: string, files: readonly PackageFile[]): string {
  return files.length ? withSections(body, files) : body;
}

/** Each line of a text with where it starts; the last line may lack its line break. */
function linesOf(text: string): { line: string; start: number; end: number }[] {
  const out: { line: string; start: number; end: number }[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    out.push({ line: text.slice(start, end), start, end });
    if (nl < 0) return out;
    start = nl + 1;
  }
}

/**
 * The file sections of a bundle, in order, in one pass over its lines: an open marker line starts
 * a section when the next marker-like line is its own close marker; any other open marker is no
 * section (and a section never holds a marker-like line).
 */
export function fileSections(text: string): FileSection[] {
  const sections: FileSection[] = [];
  let open: { path: string; start: number; innerStart: number } | null = null;
  for (const l of linesOf(text)) {
    if (!isMarkerLike(l.line)) continue;
    if (open && l.line === closeMarker(open.path)) {
      sections.push({ ...open, end: l.end, innerEnd: l.start });
      open = null;
      continue;
    }
    const path = OPEN_LINE.exec(l.line)?.[1];
    open = path !== undefined ? { path, start: l.start, innerStart: Math.min(l.end + 1, text.length) } : null;
  }
  return sections;
}

/** The marker-like lines of a text, in order: two texts with the same list have the same files. */
export function markerLines(text: string): string[] {
  return linesOf(text)
    .map((l) => l.line)
    .filter(isMarkerLike);
}

/** Model-written text without any line that reads as a file marker, so it can never open or close a file. */
export function dropMarkerLines(text: string): string {
  if (!text.includes('<!--')) return text;
  return linesOf(text)
    .filter((l) => !isMarkerLike(l.line))
    .map((l) => l.line)
    .join('\n');
}

export function hasFileSections(text: string): boolean {
  return fileSections(text).length > 0;
}

/** The file paths a bundle holds: SKILL.md first, then its sections. */
export function bundlePaths(text: string): string[] {
  return [SKILL_ENTRY, ...fileSections(text).map((s) => s.path)];
}

/** Where one line of a bundle lives: its file, and its line number in that file (0 for a marker line). */
export interface FileLine {
  path: string;
  line: number;
}

/**
 * Each line of a bundle (1-based, as an editor numbers them) as a line of its file: lines between
 * a section's markers belong to that reference file, counted from the line after its open marker;
 * every other line is SKILL.md's, counted over SKILL.md's lines only (the blocks the machinery
 * appends after the sections included). So blame and diffs can say "references/codes.md, line 3".
 */
export function bundleLineFiles(text: string): FileLine[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lineAt = (pos: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const out: FileLine[] = [];
  let main = 0;
  let at = 0;
  for (const s of fileSections(text)) {
    const open = lineAt(s.start);
    const close = lineAt(s.end - 1);
    for (; at < open; at++) out.push({ path: SKILL_ENTRY, line: ++main });
    for (; at <= close; at++) out.push({ path: s.path, line: at === open || at === close ? 0 : at - open });
  }
  for (; at < starts.length; at++) out.push({ path: SKILL_ENTRY, line: ++main });
  return out;
}

/** Cut a bundle into SKILL.md's text and its reference files (each trimmed, ending in one newline). */
export function splitBundle(text: string): { main: string; files: PackageFile[] } {
  const sections = fileSections(text);
  if (!sections.length) return { main: text, files: [] };
  const pieces: string[] = [];
  let at = 0;
  for (const s of sections) {
    pieces.push(text.slice(at, s.start));
    at = s.end;
  }
  pieces.push(text.slice(at));
  const main = pieces
    .map((p) => p.replace(/^\n+|\n+$/g, ''))
    .filter(Boolean)
    .join('\n\n');
  const files = sections.map((s) => ({ path: s.path, text: `${text.slice(s.innerStart, s.innerEnd).trim()}\n` }));
  return { main: `${main}\n`, files };
}

/** One file's text in a bundle (SKILL.md: everything outside the sections); null when absent. */
export function bundleFile(text: string, path: string): string | null {
  const { main, files } = splitBundle(text);
  if (normalisePackagePath(path) === SKILL_ENTRY) return main;
  return files.find((f) => f.path === normalisePackagePath(path))?.text ?? null;
}

/** The files two bundles differ in (SKILL.md first), or null when neither is a package. */
export function changedFiles(before: string, after: string): string[] | null {
  if (!hasFileSections(before) && !hasFileSections(after)) return null;
  const a = splitBundle(before);
  const b = splitBundle(after);
  const text = (x: typeof a, path: string) =>
    path === SKILL_ENTRY ? x.main : x.files.find((f) => f.path === path)?.text;
  const paths = [...new Set([SKILL_ENTRY, ...a.files.map((f) => f.path), ...b.files.map((f) => f.path)])];
  return paths.filter((p) => text(a, p) !== text(b, p));
}
