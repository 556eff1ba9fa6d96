/**
 * The starting skill the CLI reads and the best skill it writes (issue #23): a `.md` file is one
 * skill text; a folder or a `.zip` holding SKILL.md is a skill package, trained as the page trains
 * it (SKILL.md's body and its references as one bundle) and written back in the same layout.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { strFromU8 } from 'fflate';
import {
  MAX_PACKAGE_BYTES,
  openPackage,
  packageFromFiles,
  packageOf,
  PackageError,
  readPackageZip,
  withTrainedDescription,
  writePackageZip,
  type PackageShell,
  type SkillPackage,
} from '../core/skill/package-zip';
import type { SkillMeta } from '../core/skill/skill-file';
import { TRIGGER_FILES } from '../core/dataset/trigger-queries';
import { PACKAGE_EVALS } from '../core/skill/skill-package';
import { sectionPathProblems } from '../core/skill/package-paths';
import { ConfigError } from './config';

export interface SkillInput {
  /** The text training starts from (a package's bundle). */
  skill: string;
  /** Set when the input was a package: its frontmatter and untrained files, for the export. */
  shell?: PackageShell;
  meta?: Partial<SkillMeta>;
  /** The package's `evals/evals.json`, when it carries one: the dataset when none is named. */
  evals?: string;
  /** The package's trigger queries file (evals/trigger-evals.json and the like), when it carries one. */
  triggers?: { path: string; text: string };
}

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '__MACOSX']);

/** Every file under a folder, with paths relative to it; refused past the package size cap. */
function folderFiles(root: string): { path: string; bytes: Uint8Array }[] {
  const files: { path: string; bytes: Uint8Array }[] = [];
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(full);
      } else if (entry.isFile()) {
        total += statSync(full).size;
        if (total > MAX_PACKAGE_BYTES)
          throw new PackageError(`${root} is larger than 20 MB: a skill is text, not data.`);
        files.push({ path: relative(root, full).split('\\').join('/'), bytes: readFileSync(full) });
      }
    }
  };
  walk(root);
  return files;
}

function readPackage(path: string): SkillPackage {
  try {
    return statSync(path).isDirectory()
      ? packageFromFiles(basename(path), folderFiles(path))
      : readPackageZip(basename(path), readFileSync(path));
  } catch (e) {
    if (e instanceof PackageError) throw new ConfigError(`${path}: ${e.message}`);
    throw new ConfigError(`Cannot read the skill package ${path}.`);
  }
}

/** Read `--skill` (or the config's "skill"): a folder or `.zip` is a package, anything else one text. */
export function readSkillInput(path: string): SkillInput {
  const isFolder = statSync(path, { throwIfNoEntry: false })?.isDirectory();
  if (isFolder === undefined) throw new ConfigError(`Cannot read the skill ${path}.`);
  if (!isFolder && !/\.zip$/i.test(path)) {
    let skill: string;
    try {
      skill = readFileSync(path, 'utf8');
    } catch {
      throw new ConfigError(`Cannot read the skill ${path}.`);
    }
    // An agent CLI target writes each file section beside SKILL.md: only references inside the package.
    const bad = sectionPathProblems(skill);
    if (bad.length) throw new ConfigError(`${path}: ${bad.slice(0, 3).join('; ')}.`);
    return { skill };
  }
  const pkg = readPackage(path);
  const { bundle, meta, shell } = openPackage(pkg);
  const evals = pkg.assets.find((a) => a.path === PACKAGE_EVALS);
  const triggers = TRIGGER_FILES.map((p) => pkg.assets.find((a) => a.path === p)).find(Boolean);
  return {
    skill: bundle,
    shell,
    meta,
    ...(evals ? { evals: strFromU8(evals.bytes) } : {}),
    ...(triggers ? { triggers: { path: join(path, triggers.path), text: strFromU8(triggers.bytes) } } : {}),
  };
}

/**
 * Write the best skill into `out`: one text as best-skill.md and AGENTS.md; a package as
 * best-skill.zip and the unpacked folder best-skill/ (replaced whole, so no stale file remains).
 * Returns the paths written, for the closing line.
 */
export function writeBestSkill(
  out: string,
  best: string,
  stored: PackageShell | undefined,
  /** The description the activation track kept, when it changed it: written into SKILL.md's frontmatter. */
  trainedDescription?: string,
): string[] {
  const shell = stored && withTrainedDescription(stored, trainedDescription);
  if (!shell) {
    writeFileSync(join(out, 'best-skill.md'), best);
    writeFileSync(join(out, 'AGENTS.md'), best);
    return [join(out, 'best-skill.md')];
  }
  const pkg = packageOf(shell, best);
  const zip = join(out, 'best-skill.zip');
  writeFileSync(zip, writePackageZip(pkg));
  const folder = resolve(out, 'best-skill');
  writePackageFolder(folder, pkg);
  return [zip, `${folder}/`];
}

/** A package unpacked into `folder` (replaced whole); a path that would land outside it is refused. */
export function writePackageFolder(folder: string, pkg: SkillPackage): void {
  const root = resolve(folder);
  const files: [string, string | Uint8Array][] = [
    ['SKILL.md', pkg.skillMd],
    ...pkg.references.map((f): [string, string] => [f.path, f.text]),
    ...pkg.assets.map((a): [string, Uint8Array] => [a.path, a.bytes]),
  ];
  // Whatever a record holds, nothing is written outside the package's folder — checked before any write.
  const outside = files.find(([path]) => !resolve(root, path).startsWith(`${root}${sep}`));
  if (outside) throw new ConfigError(`"${outside[0]}" would be written outside ${root}.`);
  rmSync(root, { recursive: true, force: true });
  for (const [path, data] of files) {
    const full = resolve(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, data);
  }
}
