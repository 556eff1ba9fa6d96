/**
 * The package's kept files an agent may read besides its references (issue #30): text files
 * (scripts, templates, notes) that training never changes. Binary files and very large ones are
 * left out: an agent's read_file returns text.
 */
import { strFromU8, strToU8 } from 'fflate';
import type { PackageShell } from '../skill/package-zip';
import type { PackageFile } from '../skill/skill-package';

/** Larger kept files are not offered to read_file (a reference is text an agent reads whole). */
export const MAX_READABLE_BYTES = 200_000;

export function readableKeptFiles(shell: Pick<PackageShell, 'assets'> | undefined): PackageFile[] {
  return (shell?.assets ?? []).flatMap((a) => {
    const bytes = strToU8(a.data, true);
    if (bytes.length > MAX_READABLE_BYTES || bytes.includes(0)) return [];
    const text = strFromU8(bytes);
    return text.includes('\uFFFD') ? [] : [{ path: a.path, text }];
  });
}
