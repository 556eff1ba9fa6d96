/**
 * Skill packages in and out of `.zip` files and folders (issue #23 item 1). A package is
 * `SKILL.md` (its frontmatter kept verbatim), the trained `references/*.md`, and every other
 * file kept as bytes, read-only. Zip work is fflate's (small, pure JS, no dependencies).
 */
import { strFromU8, strToU8, Unzip, UnzipInflate, unzipSync, zipSync } from 'fflate';
import {
  bundlePackage,
  fileSections,
  isMarkerLike,
  isTrainedPath,
  normalisePackagePath,
  SKILL_ENTRY,
  splitBundle,
  type PackageFile,
} from './skill-package';
import { withFileSet } from './file-set';
import { removeMarkers } from './protected-regions';
import { formatSkillFile, parseSkillFile, skillName, withDescription, type SkillMeta } from './skill-file';
import { isPackagePath, packageFolderName, pathClashes } from './package-paths';

/** A file the package carries but training never changes (scripts/, assets/, evals/…). */
export interface PackageAsset {
  path: string;
  bytes: Uint8Array;
}

export interface SkillPackage {
  /** The package's folder name (the zip's top folder or file name), for the exported file. */
  name: string;
  /** SKILL.md exactly as read. */
  skillMd: string;
  references: PackageFile[];
  assets: PackageAsset[];
}

/** A package larger than this once unpacked is refused: a skill is text, not a data set. */
export const MAX_PACKAGE_BYTES = 20 * 1024 * 1024;
const SKIPPED = /(?:^|\/)(?:__MACOSX|\.git)(?:\/|$)|(?:^|\/)\.DS_Store$/;

export class PackageError extends Error {}

/**
 * The files of a folder or zip as a package: SKILL.md at the shallowest level, paths below it.
 * Anything ambiguous is refused with its paths named (issue #28), never resolved silently: two
 * SKILL.md files at that level, or two files the package could not hold apart (pathClashes).
 */
export function packageFromFiles(name: string, files: readonly { path: string; bytes: Uint8Array }[]): SkillPackage {
  const kept = files
    .map((f) => ({ path: normalisePackagePath(f.path), bytes: f.bytes }))
    .filter((f) => f.path && !SKIPPED.test(f.path));
  const entries = kept.filter((f) => /(?:^|\/)SKILL\.md$/i.test(f.path));
  if (!entries.length)
    throw new PackageError('This package has no SKILL.md: a skill package is a folder with SKILL.md at its top.');
  const depth = (p: string) => p.split('/').length;
  const top = Math.min(...entries.map((e) => depth(e.path)));
  const tops = entries.filter((e) => depth(e.path) === top);
  if (tops.length > 1)
    throw new PackageError(
      `This package has ${tops.length} SKILL.md files at its top (${tops.map((e) => `"${e.path}"`).join(', ')}): keep one.`,
    );
  const entry = tops[0];
  const root = entry.path.slice(0, entry.path.length - SKILL_ENTRY.length);
  const inside = kept.filter((f) => f !== entry && f.path.startsWith(root));
  const clashes = pathClashes(inside.map((f) => f.path.slice(root.length)));
  if (clashes.length)
    throw new PackageError(
      `This package's files cannot be told apart: ${clashes.slice(0, 5).join('; ')}. Rename them.`,
    );
  const references: PackageFile[] = [];
  const assets: PackageAsset[] = [];
  for (const { path: full, bytes } of inside) {
    const f = { path: full.slice(root.length), bytes };
    if (isTrainedPath(f.path)) references.push({ path: f.path, text: readText(f.path, f.bytes) });
    else assets.push(f);
  }
  references.sort((a, b) => a.path.localeCompare(b.path));
  assets.sort((a, b) => a.path.localeCompare(b.path));
  const folder = root.replace(/\/$/, '').split('/').pop() || name.replace(/\.zip$/i, '');
  return { name: packageFolderName(folder), skillMd: readText(SKILL_ENTRY, entry.bytes), references, assets };
}

function readText(path: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true })
      .decode(bytes)
      .replace(/^\uFEFF/, '')
      .replace(/\r\n/g, '\n');
  } catch {
    throw new PackageError(`${path} is not UTF-8 text: a skill's markdown files must be UTF-8.`);
  }
}

/**
 * What each compressed entry of a zip really unpacks to, counted as it streams (never held): an
 * entry's header may understate its size, and unpacked by that size it would be cut short
 * silently (issue #39, earlier L5). Past the package limit it stops: the zip is too large.
 */
function unpackedSizes(zip: Uint8Array): Map<string, number> {
  const sizes = new Map<string, number>();
  const seen = { total: 0, problem: '' };
  const unzip = new Unzip((file) => {
    if (file.compression !== 8) return; // stored: its bytes are what the zip holds, counted as such
    let n = 0;
    file.ondata = (err, chunk, final) => {
      if (seen.problem) return;
      if (err) return void (seen.problem = `This .zip is damaged (${err.message}).`);
      n += chunk.length;
      seen.total += chunk.length;
      if (seen.total > MAX_PACKAGE_BYTES) {
        seen.problem = 'This package is larger than 20 MB once unpacked.';
        return file.terminate();
      }
      if (final) sizes.set(file.name, n);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.push(zip, true);
  if (seen.problem) throw new PackageError(seen.problem);
  return sizes;
}

/** A package from a `.zip`'s bytes; a damaged or oversized zip gets a clear error. */
export function readPackageZip(name: string, zip: Uint8Array): SkillPackage {
  let total = 0;
  let files: Record<string, Uint8Array>;
  const names = new Set<string>();
  try {
    // What the headers say is checked first (nothing unpacked): a package over the limit goes at once.
    unzipSync(zip, {
      filter: (f) => {
        // A stored entry is as long as its bytes in the zip, whatever its header says.
        total += f.compression === 0 ? Math.max(f.size, f.originalSize) : f.originalSize;
        if (total > MAX_PACKAGE_BYTES) throw new PackageError('This package is larger than 20 MB once unpacked.');
        return false;
      },
    });
    const real = unpackedSizes(zip);
    files = unzipSync(zip, {
      filter: (f) => {
        const size = real.get(f.name);
        if (size !== undefined && size !== f.originalSize)
          throw new PackageError(
            `This .zip says "${f.name}" holds ${f.originalSize} bytes, but it unpacks to ${size}: it is damaged or made to mislead.`,
          );
        if (f.name.endsWith('/')) return false;
        // A zip may hold one name twice; unpacked, the last would silently win.
        if (names.has(f.name)) throw new PackageError(`This .zip holds "${f.name}" twice: which one is the package's?`);
        names.add(f.name);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof PackageError) throw e;
    throw new PackageError(`This file is not a readable .zip (${e instanceof Error ? e.message : String(e)}).`);
  }
  return packageFromFiles(
    name,
    Object.entries(files).map(([path, bytes]) => ({ path, bytes })),
  );
}

/**
 * The package as a `.zip` under one top folder, the layout it was read with. Its name is made one
 * folder name, and a path that could leave that folder, or clash with another, is refused.
 */
export function writePackageZip(pkg: SkillPackage): Uint8Array {
  const top = packageFolderName(pkg.name);
  const paths = [...pkg.references.map((f) => f.path), ...pkg.assets.map((a) => a.path)];
  const bad = paths.find((p) => !isPackagePath(p));
  if (bad !== undefined) throw new PackageError(`"${bad}" is not a path inside the package.`);
  const clashes = pathClashes(paths);
  if (clashes.length) throw new PackageError(`The package's files cannot be told apart: ${clashes.join('; ')}.`);
  const tree: Record<string, Uint8Array> = { [`${top}/${SKILL_ENTRY}`]: strToU8(pkg.skillMd) };
  for (const f of pkg.references) tree[`${top}/${f.path}`] = strToU8(f.text);
  for (const a of pkg.assets) tree[`${top}/${a.path}`] = a.bytes;
  // A fixed time: the same package always zips to the same bytes.
  return zipSync(tree, { level: 6, mtime: 946_684_800_000 }); // 2000-01-01T00:00:00Z
}

/**
 * What a package holds around its trained text: SKILL.md's frontmatter, verbatim, and the files
 * training never changes. Plain strings (assets as binary strings), so a shell is stored and
 * cloned like any draft or record.
 */
export interface PackageShell {
  name: string;
  /** SKILL.md's frontmatter block as read (`---\n…\n---\n`), or '' when it had none. */
  frontmatter: string;
  assets: { path: string; data: string }[];
  /** Files the page could not keep across a reload (too large for its drafts); absent when none. */
  assetsLeftOut?: number;
  /**
   * The trained files read at import (issue #28): the package's file set, whatever the trained
   * text's markers say. Absent in runs stored before it: the text's own reference sections.
   */
  files?: string[];
}

const FRONTMATTER = /^---\n[\s\S]*?\n---[ \t]*(?:\n|$)/;

/**
 * The first line of an imported file (1-based) that reads as a file marker — or would, once a
 * protected-block marker in it is taken out — or 0.
 */
function markerLineOf(text: string): number {
  if (!text.includes('<!--')) return 0;
  const lines = text.split('\n');
  return lines.findIndex((l) => isMarkerLike(l) || (l.includes('<!--') && isMarkerLike(removeMarkers(l)))) + 1;
}

/** Open a package for training: its bundle text, its metadata for the Skill screen, and its shell. */
export function openPackage(pkg: SkillPackage): { bundle: string; meta: Partial<SkillMeta>; shell: PackageShell } {
  const parsed = parseSkillFile(pkg.skillMd);
  // A line that reads as a file marker would let a file's text decide the package's files.
  // SKILL.md's lines are counted in the file, its frontmatter included.
  const before = pkg.skillMd.endsWith(parsed.body) ? pkg.skillMd.slice(0, pkg.skillMd.length - parsed.body.length) : '';
  const skillLines = before.split('\n').length - 1;
  for (const f of [{ path: SKILL_ENTRY, text: parsed.body }, ...pkg.references]) {
    const found = markerLineOf(f.text);
    const at = found && (f.path === SKILL_ENTRY ? found + skillLines : found);
    if (at)
      throw new PackageError(
        `${f.path}, line ${at}: a line that reads as a file marker (<!-- FILE: … -->), which Skillwright uses to keep a package's files apart. Put it in backticks or reword it.`,
      );
  }
  const raw = FRONTMATTER.exec(pkg.skillMd.replace(/^\uFEFF/, ''))?.[0] ?? '';
  return {
    bundle: bundlePackage(parsed.body, pkg.references),
    meta: { ...(parsed.meta.name ? { name: parsed.meta.name } : {}), description: parsed.meta.description ?? '' },
    shell: {
      name: pkg.name,
      frontmatter: raw && !raw.endsWith('\n') ? `${raw}\n` : raw,
      assets: pkg.assets.map((a) => ({ path: a.path, data: strFromU8(a.bytes, true) })),
      files: pkg.references.map((f) => f.path),
    },
  };
}

/**
 * The package a bundle makes inside its shell: SKILL.md is the frontmatter as read, then the
 * trained body. Its files are the run's (the shell's `files`), never what the text's markers say:
 * a section of any other path loses its markers and its text stays SKILL.md's (core/skill/file-set.ts).
 */
export function packageOf(shell: PackageShell, bundle: string): SkillPackage {
  const given = shell.files ?? fileSections(bundle).map((s) => s.path);
  const paths = [...new Set(given)].filter((p) => isTrainedPath(p) && isPackagePath(p));
  const { main, files } = splitBundle(withFileSet(bundle, paths, []));
  const body = `${main.trimEnd()}\n`;
  return {
    name: shell.name,
    skillMd: shell.frontmatter ? `${shell.frontmatter}\n${body}` : body,
    references: files,
    // Stored paths are checked on import (storage/bundle-validate.ts); normalised here again, so
    // no path from a run's record can name a place outside the package's folder.
    assets: shell.assets
      .map((a) => ({ path: normalisePackagePath(a.path), bytes: strToU8(a.data, true) }))
      .filter((a) => isPackagePath(a.path)),
  };
}

/** A run's shell with its file set: the paths read at import, or — for runs stored before they were kept — its starting skill's. */
export function runShell(shell: PackageShell, initialSkill: string): PackageShell {
  return shell.files ? shell : { ...shell, files: fileSections(initialSkill).map((s) => s.path) };
}

/** The shell with a trained description in its frontmatter (the activation track's), or as it is without one. */
export function withTrainedDescription(shell: PackageShell, description: string | undefined): PackageShell {
  return description ? { ...shell, frontmatter: withDescription(shell.frontmatter, description) } : shell;
}

/** The shell of a package made from a skill that was not opened as one: frontmatter from its metadata. */
export function newShell(meta: Partial<SkillMeta>, fallbackName: string, bundle: string): PackageShell {
  const file = formatSkillFile(splitBundle(bundle).main, 'skill_md', meta);
  return { name: skillName(meta.name || fallbackName), frontmatter: FRONTMATTER.exec(file)?.[0] ?? '', assets: [] };
}
