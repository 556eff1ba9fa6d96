/**
 * An item's workspace (issue #42 item 4), the runner's part: the folder or .zip a dataset names,
 * found inside the dataset's folder (links included: its real path must stay inside), and copied
 * into the item's temporary working folder before the agent runs. Nothing is written anywhere
 * else: a folder holding a symbolic link is refused (the agent could write through it), and a
 * .zip's entries must be plain relative paths.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { isWorkspaceArchive } from '../core/agent/workspace-task';

/** Files a workspace may hold, and bytes (a runaway folder is refused, not copied for every item). */
const MAX_FILES = 10_000;
const MAX_BYTES = 200 * 1024 * 1024;

const inside = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/** The workspace's real path, or why it cannot be used (not there, outside the folder, a link inside it). */
export function findWorkspace(root: string, path: string): { path: string } | { problem: string } {
  const shown = JSON.stringify(path);
  let real: string;
  try {
    real = realpathSync(resolve(root, path));
  } catch {
    return { problem: `${shown} is not there (looked in ${root})` };
  }
  if (!inside(realpathSync(root), real))
    return { problem: `${shown} leads outside the dataset's folder (through a link): a workspace must be inside it` };
  const stat = statSync(real);
  if (isWorkspaceArchive(real)) return stat.isFile() ? { path: real } : { problem: `${shown} is not a .zip file` };
  if (!stat.isDirectory()) return { problem: `${shown} is neither a folder nor a .zip` };
  const link = firstLink(real);
  if (link)
    return {
      problem: `${shown} holds a symbolic link (${relative(real, link)}): links are not copied, the agent could write through one`,
    };
  return { path: real };
}

/** The first symbolic link under a folder, or null. */
function firstLink(folder: string): string | null {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return path;
    if (stat.isDirectory()) {
      const below = firstLink(path);
      if (below) return below;
    }
  }
  return null;
}

/** Copy the workspace (a folder found by `findWorkspace`, or a .zip) into the item's working folder. */
export function copyWorkspace(source: string, ws: string): void {
  const budget = { files: MAX_FILES, bytes: MAX_BYTES };
  if (isWorkspaceArchive(source)) return unpack(source, ws, budget);
  copyFolder(source, ws, budget);
}

function spend(budget: { files: number; bytes: number }, bytes: number, source: string): void {
  budget.files--;
  budget.bytes -= bytes;
  if (budget.files < 0 || budget.bytes < 0)
    throw new Error(`the workspace ${source} holds more than ${MAX_FILES} files or ${MAX_BYTES / 2 ** 20} MB`);
}

function copyFolder(from: string, to: string, budget: { files: number; bytes: number }): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    const stat = lstatSync(src);
    // Checked before the run too; a link made since is still never followed.
    if (stat.isSymbolicLink()) throw new Error(`the workspace holds a symbolic link (${src}): it is not copied`);
    if (stat.isDirectory()) copyFolder(src, join(to, name), budget);
    else if (stat.isFile()) {
      spend(budget, stat.size, from);
      writeFileSync(join(to, name), readFileSync(src), { mode: stat.mode & 0o777 });
    }
  }
}

/**
 * A .zip unpacked: each entry a plain relative path inside the folder (no `..`, no absolute
 * path), its paths and sizes checked from the archive's directory before anything is inflated.
 */
function unpack(zip: string, to: string, budget: { files: number; bytes: number }): void {
  const root = resolve(to);
  const outside = (name: string) => name.includes('\\') || isAbsolute(name) || !inside(root, resolve(root, name));
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(new Uint8Array(readFileSync(zip)), {
      filter: (f) => {
        if (outside(f.name)) throw new Error(`it holds an entry outside its folder (${JSON.stringify(f.name)})`);
        if (!f.name.endsWith('/')) spend(budget, f.originalSize, zip);
        return true;
      },
    });
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    if (why.startsWith('the workspace')) throw e; // too large: it says so itself
    throw new Error(`the workspace ${zip} cannot be unpacked: ${why}`, { cause: e });
  }
  for (const [name, bytes] of Object.entries(entries)) {
    const path = resolve(root, name);
    if (name.endsWith('/')) mkdirSync(path, { recursive: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    }
  }
}
