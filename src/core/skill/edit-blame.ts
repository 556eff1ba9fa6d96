/**
 * Edit blame (issue #11): for each line of a skill, the version that introduced it — like
 * `git blame` over the chain of versions a run made current (initial skill, accepted steps,
 * epoch guidance, appendix reminders, then any edits made by hand). A line kept from one
 * version to the next keeps its origin; a new or changed line is the new version's. Lines are
 * matched by a longest common subsequence, so a line that moved by an insertion above it keeps
 * its origin.
 */

import { diffArrays } from 'diff';

export interface BlameVersion {
  /** The version's identity in the chain (its origin label, "initial_skill", "step_0003"…). */
  key: string;
  text: string;
}

const linesOf = (text: string): string[] => text.replace(/\n$/, '').split('\n');

/**
 * For each line of `b`, the index of the line of `a` it was kept from (-1 when new), by a
 * shortest edit script over whole lines (a longest common subsequence). Common prefix and suffix
 * are matched first, so typical edits (a few lines added or changed) cost little.
 */
export function keptLines(a: readonly string[], b: readonly string[]): number[] {
  const out = new Array<number>(b.length).fill(-1);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) {
    out[head] = head;
    head++;
  }
  let tailA = a.length;
  let tailB = b.length;
  while (tailA > head && tailB > head && a[tailA - 1] === b[tailB - 1]) {
    tailA--;
    tailB--;
    out[tailB] = tailA;
  }
  if (tailA === head || tailB === head) return out;
  // The middle by Myers' diff (jsdiff): O((n + m)·d) time and memory linear in the lines and the
  // edits, where a table of the longest common subsequence took (n + 1)(m + 1) cells — 100 MB for
  // two 5 000-line skills (issue #20 item 17).
  let i = head;
  let j = head;
  for (const c of diffArrays(a.slice(head, tailA), b.slice(head, tailB))) {
    const count = c.value.length;
    if (c.added) j += count;
    else if (c.removed) i += count;
    else for (let k = 0; k < count; k++) out[j++] = i++;
  }
  return out;
}

/** For each line of the last version, the key of the version that introduced it. */
export function blameLines(versions: readonly BlameVersion[]): string[] {
  if (!versions.length) return [];
  let lines = linesOf(versions[0].text);
  let keys = lines.map(() => versions[0].key);
  for (const v of versions.slice(1)) {
    const next = linesOf(v.text);
    const kept = keptLines(lines, next);
    keys = next.map((_, j) => (kept[j] >= 0 ? keys[kept[j]] : v.key));
    lines = next;
  }
  // A blank line says nothing of its own: it goes with the line above it (which version's
  // blank line the diff kept is arbitrary, and would scatter the gutter).
  return keys
    .map((k, i) => (i > 0 && !lines[i].trim() ? null : k))
    .map((k, i, all) => k ?? precedingKey(all, i) ?? keys[i]);
}

function precedingKey(keys: readonly (string | null)[], i: number): string | null {
  for (let j = i - 1; j >= 0; j--) if (keys[j] !== null) return keys[j];
  return null;
}

export interface BlameRange {
  /** 1-based, inclusive, as editors count lines. */
  start: number;
  end: number;
  key: string;
}

/** Runs of consecutive lines from the same version. */
export function blameRanges(keys: readonly string[]): BlameRange[] {
  const out: BlameRange[] = [];
  keys.forEach((key, i) => {
    const last = out[out.length - 1];
    if (last && last.key === key && last.end === i) last.end = i + 1;
    else out.push({ start: i + 1, end: i + 1, key });
  });
  return out;
}
