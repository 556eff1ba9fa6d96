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
const OPEN = /<!-- FILE: ([^\n]*?) -->/g;
/** Any file marker, well formed or not, so model-written text can never forge one. */
const ANY_MARKER = /<!--\s*(?:END\s+)?FILE:[^\n]*?-->/g;

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
function withSections(text: string, files: readonly PackageFile[]): string {
  const sections = files.map((f) => `${openMarker(f.path)}\n${f.text.trim()}\n${closeMarker(f.path)}`);
  return `${[text.trimEnd(), ...sections].join('\n\n')}\n`;
}

/** The bundle of SKILL.md's body and the trained reference files, in the order given. */
export function bundlePackage(body: string, files: readonly PackageFile[]): string {
  return files.length ? withSections(body, files) : body;
}

/** The file sections of a bundle, in order; an open marker without its close marker is no section. */
export function fileSections(text: string): FileSection[] {
  const sections: FileSection[] = [];
  let from = 0;
  for (;;) {
    OPEN.lastIndex = from;
    const m = OPEN.exec(text);
    if (!m) return sections;
    const path = m[1];
    const close = closeMarker(path);
    const closeAt = text.indexOf(close, m.index + m[0].length);
    if (closeAt < 0) {
      from = m.index + m[0].length;
      continue;
    }
    const innerStart = text.charAt(m.index + m[0].length) === '\n' ? m.index + m[0].length + 1 : m.index + m[0].length;
    sections.push({ path, start: m.index, end: closeAt + close.length, innerStart, innerEnd: closeAt });
    from = closeAt + close.length;
  }
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

/** Remove file markers from model-written text so no edit can open or close a file. */
export function stripFileMarkers(text: string): string {
  let out = text;
  for (;;) {
    const next = out.replace(ANY_MARKER, '');
    if (next === out) return out;
    out = next;
  }
}

/**
 * A rewrite (full-rewrite mode) must keep every file: a section the rewrite dropped comes back
 * unchanged at the end, so no reference file can vanish from the package.
 */
export function keepDroppedFiles(before: string, after: string): string {
  const kept = new Set(fileSections(after).map((s) => s.path));
  const dropped = splitBundle(before).files.filter((f) => !kept.has(f.path));
  return dropped.length ? withSections(after, dropped) : after;
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
