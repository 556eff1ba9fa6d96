/**
 * A shard's rollouts file (issue #42 item 6): one JSON line per rollout, with what decides whether
 * another evaluation or run may reuse it. The row's cache key already holds the skill's hash, the
 * item's id, the target's settings (endpoint, model, sampling, an agent CLI's command), the rollout
 * template, the scorer and the agent's environment; it does not hold the item's text (only its id)
 * nor the judge's model, so each line carries those too and `--merge` checks them here.
 *
 * Merging never writes a row anywhere by itself: the run's store asks `findRollout` as it always
 * does, and a row of these files answers for a cache key the run computes — so a row made with
 * another skill, target, environment or scoring is simply never asked for, and is counted as not
 * this run's. An errored rollout is never merged: that item is asked again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { DatasetItem } from '../core/dataset/dataset-types';
import type { RunStore } from '../engine/ports';
import type { RolloutRow } from '../engine/types';
import type { RunEndpoints } from '../storage/schema';
import type { RunConfig } from '../core/config/run-config';
import { ConfigError } from './config';

const FORMAT = 'skillwright-rollout/1';

/** One line of a shard file. */
export interface ShardLine {
  format: typeof FORMAT;
  /** "K/N", or "all" for an unsharded split. */
  shard: string;
  /** The item's text as the target and scorer saw it: a different text under the same id is not reused. */
  itemHash: string;
  /** What scored it beyond the cache key: the judge's endpoint and model, when the scorer is a judge. */
  scoring: string;
  /** For a person reading the file: the target's model and endpoint. */
  target: string;
  row: RolloutRow;
}

const sha = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 16);

/** The item as the target and scorer see it (its split is where it was put, not what it is). */
export const itemHash = (item: DatasetItem): string => sha({ ...item, split: undefined });

/** What scores a rollout that its cache key does not name: the judge's endpoint and model. */
export function scoringIdentity(config: RunConfig, endpoints: RunEndpoints): string {
  const judge = endpoints.judge ?? endpoints.optimizer;
  return sha(config.scorer.kind === 'judge' ? [config.scorer, judge.baseURL, judge.model] : [config.scorer]);
}

/** Refuse to write over a file before anything is spent (it may be another shard's rows). */
export function checkWritable(path: string): void {
  if (existsSync(path))
    throw new ConfigError(`${path} exists: give --rollouts a new file (a shard's rows are never written over).`);
}

export function writeShardFile(
  path: string,
  rows: readonly RolloutRow[],
  o: { shard: string; items: ReadonlyMap<string, DatasetItem>; scoring: string; target: string },
): void {
  const lines = rows.map((row): ShardLine => {
    const item = o.items.get(row.itemId);
    if (!item) throw new Error(`item ${row.itemId} is not in the dataset`);
    return { format: FORMAT, shard: o.shard, itemHash: itemHash(item), scoring: o.scoring, target: o.target, row };
  });
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

/** The first field of a line that is not what a shard line holds, in words; null when it is whole. */
function badField(v: unknown): string | null {
  if (!v || typeof v !== 'object') return 'the line is not a JSON object';
  const l = v as Record<string, unknown>;
  if (l.format !== FORMAT) return `"format" must be "${FORMAT}"`;
  for (const f of ['shard', 'itemHash', 'scoring'] as const) if (typeof l[f] !== 'string') return `"${f}" is missing`;
  const row = l.row as Record<string, unknown> | undefined;
  if (!row || typeof row !== 'object') return '"row" is missing';
  for (const f of ['cacheKey', 'itemId', 'skillHash', 'phase'] as const)
    if (typeof row[f] !== 'string') return `"row.${f}" is missing or not text`;
  if (row.status !== 'ok' && row.status !== 'error') return '"row.status" must be "ok" or "error"';
  for (const f of ['hard', 'soft'] as const)
    if (typeof row[f] !== 'number' || !Number.isFinite(row[f])) return `"row.${f}" is not a number`;
  return null;
}

/** Rows of shard files a command may reuse, and what it counted as not its own. */
export class MergedRollouts {
  private readonly byKey = new Map<string, RolloutRow>();
  private readonly used = new Set<string>();
  /** Rows set aside before the run: errored ones, and ones made on another item text or scoring. */
  readonly setAside = { errored: 0, otherItem: 0, otherScoring: 0 };
  files = 0;

  /**
   * Read shard files against this command's dataset and scoring. A malformed line stops the
   * command with its file, line and field named, before anything is spent.
   */
  static read(paths: readonly string[], items: readonly DatasetItem[], scoring: string): MergedRollouts {
    return new MergedRollouts().load(paths, items, scoring);
  }

  /** Read shard files into this merge (a resumed run knows its dataset and scoring only once it is open). */
  load(paths: readonly string[], items: readonly DatasetItem[], scoring: string): this {
    const hashes = new Map(items.map((i) => [i.id, itemHash(i)]));
    for (const path of paths) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        throw new ConfigError(`Cannot read the shard file ${path}.`);
      }
      this.files++;
      text.split('\n').forEach((t, i) => {
        if (!t.trim()) return;
        let v: unknown;
        try {
          v = JSON.parse(t);
        } catch {
          throw new ConfigError(`${path}, line ${i + 1}: not JSON — is this a shard file from eval --rollouts?`);
        }
        const bad = badField(v);
        if (bad) throw new ConfigError(`${path}, line ${i + 1}: ${bad}.`);
        this.add(v as ShardLine, hashes, scoring);
      });
    }
    return this;
  }

  private add(l: ShardLine, hashes: ReadonlyMap<string, string>, scoring: string): void {
    const a = this.setAside;
    if (l.row.status !== 'ok') a.errored++;
    else if (hashes.has(l.row.itemId) && hashes.get(l.row.itemId) !== l.itemHash) a.otherItem++;
    else if (l.scoring !== scoring) a.otherScoring++;
    else if (!this.byKey.has(l.row.cacheKey)) this.byKey.set(l.row.cacheKey, { ...l.row, cached: false });
  }

  get size(): number {
    return this.byKey.size;
  }

  /** A run store that finds these rows as its own ok rollouts; a row is counted as used when asked for. */
  over<S extends RunStore>(store: S): S {
    const find = async (runId: string, cacheKey: string) => {
      const own = await store.findRollout(runId, cacheKey);
      if (own) return own;
      const row = this.byKey.get(cacheKey);
      if (!row) return undefined;
      this.used.add(cacheKey);
      return { ...structuredClone(row), runId };
    };
    return new Proxy(store, {
      get(target, p) {
        if (p === 'findRollout') return find;
        const v: unknown = Reflect.get(target, p, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** A run folder's records whose run store finds these rows too (train, resume). */
  overRecords<R extends { runStore(runId: string): RunStore }>(records: R): R {
    return new Proxy(records, {
      get: (target, p) => {
        if (p === 'runStore') return (runId: string) => this.over(target.runStore(runId));
        const v: unknown = Reflect.get(target, p, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  }

  /** What was merged, in one line for the terminal. */
  words(): string {
    const a = this.setAside;
    const notOurs = this.byKey.size - this.used.size;
    const parts = [
      `merged ${this.used.size} rollout(s) from ${this.files} shard file(s)`,
      ...(notOurs
        ? [
            `${notOurs} not this command's (another skill, target, environment, scorer, or items it does not score): not used`,
          ]
        : []),
      ...(a.otherItem ? [`${a.otherItem} made on another text of the same item id: not used`] : []),
      ...(a.otherScoring ? [`${a.otherScoring} scored by another judge: not used`] : []),
      ...(a.errored ? [`${a.errored} errored: never merged as a score, those items were asked again`] : []),
    ];
    return `${parts.join('; ')}.`;
  }

  json() {
    return { used: this.used.size, notUsed: this.byKey.size - this.used.size, ...this.setAside };
  }
}

/** A run's exit code, after saying what its `--merge` brought in (nothing when there was none). */
export function saidMerged(merged: MergedRollouts | null, io: { err: (t: string) => void }, code: number): number {
  if (merged) io.err(merged.words());
  return code;
}
