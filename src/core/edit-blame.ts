/**
 * Edit blame (issue #11): for each line of a skill, the version that introduced it — like
 * `git blame` over the chain of versions a run made current (initial skill, accepted steps,
 * epoch guidance, appendix reminders, then any edits made by hand). A line kept from one
 * version to the next keeps its origin; a new or changed line is the new version's. Lines are
 * matched by a longest common subsequence, so a line that moved by an insertion above it keeps
 * its origin.
 */

export interface BlameVersion {
  /** The version's identity in the chain (its origin label, "initial_skill", "step_0003"…). */
  key: string;
  text: string;
}

const linesOf = (text: string): string[] => text.replace(/\n$/, '').split('\n');

/**
 * For each line of `b`, the index of the line of `a` it was kept from (-1 when new), by a
 * longest common subsequence of whole lines. Common prefix and suffix are matched first, so
 * typical edits (a few lines added or changed) cost little.
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
  const n = tailA - head;
  const m = tailB - head;
  if (n === 0 || m === 0) return out;
  // lcs[i][j]: LCS length of a[head+i..tailA) and b[head+j..tailB), in one flat array.
  const lcs = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[at(i, j)] =
        a[head + i] === b[head + j] ? lcs[at(i + 1, j + 1)] + 1 : Math.max(lcs[at(i + 1, j)], lcs[at(i, j + 1)]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[head + i] === b[head + j]) {
      out[head + j] = head + i;
      i++;
      j++;
    } else if (lcs[at(i + 1, j)] >= lcs[at(i, j + 1)]) i++;
    else j++;
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
