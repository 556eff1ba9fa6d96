/**
 * Shards of a scoring phase, run on other machines (issue #42 item 6): `eval --shard K/N` scores
 * only the items whose id hashes to shard K, so N machines (a CI matrix, a container host) each
 * take a stable, disjoint part of a split — the same part wherever and whenever it runs, because
 * the split is by item id, not by position. The rollouts go to a JSON-lines file (shard-file.ts)
 * that `--merge` brings back into an evaluation or a run.
 */
import { createHash } from 'node:crypto';
import { ConfigError } from './config';

export interface Shard {
  /** 1-based, as a CI matrix counts. */
  k: number;
  n: number;
}

/** "2/4" → shard 2 of 4; anything else is named. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const k = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || k < 1 || k > n)
    throw new ConfigError(`--shard must be K/N with 1 ≤ K ≤ N (e.g. --shard 2/4), not "${text}".`);
  return { k, n };
}

/** Which shard (1..n) an item belongs to: a hash of its id, so adding or reordering items moves no other item. */
export function shardOfItem(itemId: string, n: number): number {
  return (createHash('sha256').update(itemId).digest().readUInt32BE(0) % n) + 1;
}

/** The ids of a split that shard K of N scores, in the split's order. */
export const shardItems = (ids: readonly string[], s: Shard): string[] =>
  ids.filter((id) => shardOfItem(id, s.n) === s.k);

/**
 * The shard files of `--merge`: `--merge a.jsonl b.jsonl` (the shell gives the files after the
 * first as words of their own, as `--merge shards/*.jsonl` does) or `--merge a --merge b`.
 */
export function mergeFiles(merge: readonly string[] | undefined, rest: readonly string[], command: string): string[] {
  if (rest.length && !merge?.length)
    throw new ConfigError(`${command} takes no ${rest.join(' ')}; shard files follow --merge.`);
  return [...(merge ?? []), ...rest];
}
