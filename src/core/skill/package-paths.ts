/**
 * The paths of a skill package's files, checked wherever a package is read, stored or written
 * (issue #28): a path is relative, `/`-separated and normalised (no `.`, `..` or empty part), so
 * it never names a place outside the package's folder; no two files share a path, a path that
 * differs only in case, or a path that is also a folder of another. The package's own name
 * becomes one folder name.
 */
import { SKILL_ENTRY, fileSections, isTrainedPath, normalisePackagePath } from './skill-package';

// Control characters have no place in a file name (and would reach a terminal when printed).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A path as a package stores it: normalised, non-empty, without control characters. */
export function isPackagePath(path: string): boolean {
  return path !== '' && normalisePackagePath(path) === path && !CONTROL.test(path);
}

/** A package's name as one folder name: its last path part, no control characters, dots only inside. */
export function packageFolderName(name: string): string {
  const last = normalisePackagePath(name.replace(/[\u0000-\u001f\u007f]/g, '')) // eslint-disable-line no-control-regex
    .split('/')
    .pop()!;
  const one = last
    .replace(/:/g, '-')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100);
  return one || 'skill';
}

/**
 * Paths a package cannot hold together, each problem naming its paths: the same path twice, two
 * paths that differ only in case (one file on macOS and Windows), a file that is also a folder
 * of another, and a second SKILL.md where the package's is.
 */
export function pathClashes(paths: readonly string[]): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, string>();
  for (const p of [SKILL_ENTRY, ...paths]) {
    const key = p.toLowerCase();
    const seen = byKey.get(key);
    if (seen === undefined) byKey.set(key, p);
    else if (seen === p) problems.push(`"${p}" appears twice`);
    else problems.push(`"${seen}" and "${p}" differ only in case`);
  }
  const files = new Set(byKey.keys());
  for (const [key, p] of byKey) {
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (files.has(folder)) problems.push(`"${byKey.get(folder)}" is a file and a folder of "${p}"`);
    }
  }
  return problems;
}

/** Whether a file section may name this path: a reference file inside the package (`references/….md`). */
export function isSectionPath(path: string): boolean {
  return isPackagePath(path) && isTrainedPath(path);
}

/**
 * The file sections of a skill text that name no reference file inside the package — checked
 * wherever a skill text enters a run (issue #39 H4: a starting .md, a bundle's skill texts), since
 * an agent CLI target writes each section as a file beside SKILL.md. Empty when every one does.
 */
export function sectionPathProblems(text: string): string[] {
  return fileSections(text)
    .map((s) => s.path)
    .filter((p) => !isSectionPath(p))
    .map(
      (p) =>
        `the file section ${JSON.stringify(p.slice(0, 200))} names no reference file inside the package (references/….md)`,
    );
}
