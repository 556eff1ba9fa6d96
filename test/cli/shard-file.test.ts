// Shards' parts of a split and the rows `--merge` sets aside (issue #42 item 6): the split is by
// item id, stable and disjoint; a row scored by another judge, on another text of an item, or
// errored is never reused; the judge's identity counts only when the scorer is a judge.
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseShard, shardItems, shardOfItem } from '../../src/cli/shard';
import { itemHash, MergedRollouts, scoringIdentity, writeShardFile } from '../../src/cli/shard-file';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { DatasetItem } from '../../src/core/dataset/dataset-types';
import type { RolloutRow } from '../../src/engine/types';
import type { RunEndpoints } from '../../src/storage/schema';
import { MemoryRunStore } from '../../src/storage/memory-store';

const item = (id: string, question = `q ${id}`): DatasetItem => ({ id, question, answers: ['a'], fields: {} });
const row = (id: string, status: 'ok' | 'error' = 'ok'): RolloutRow => ({
  runId: 'evaluation',
  phase: 'eval/test',
  order: 0,
  itemId: id,
  skillHash: 'h',
  cacheKey: `h|${id}|t`,
  status,
  response: 'a',
  predicted: 'a',
  hard: status === 'ok' ? 1 : 0,
  soft: status === 'ok' ? 1 : 0,
  usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 },
  latencyMs: 1,
  cached: false,
});
const ep = (model: string) => ({ baseURL: 'http://127.0.0.1:1/v1', model });
const endpoints = (judge: string): RunEndpoints => ({ target: ep('t'), optimizer: ep('o'), judge: ep(judge) });

describe('shards of a split', () => {
  const ids = Array.from({ length: 200 }, (_, i) => `item-${i}`);

  it('puts every item in exactly one shard, by its id whatever the order', () => {
    const parts = [1, 2, 3, 4].map((k) => shardItems(ids, { k, n: 4 }));
    expect(parts.flat().sort()).toEqual([...ids].sort());
    for (const p of parts) expect(p.length).toBeGreaterThan(20); // no shard left empty by the hash
    expect(shardItems([...ids].reverse(), { k: 2, n: 4 })).toEqual([...parts[1]].reverse());
    expect(shardItems([...ids, 'new-item'], { k: 3, n: 4 }).filter((id) => id !== 'new-item')).toEqual(parts[2]);
    expect(ids.every((id) => shardOfItem(id, 1) === 1)).toBe(true);
  });

  it('reads K/N and names anything else', () => {
    expect(parseShard('2/4')).toEqual({ k: 2, n: 4 });
    for (const bad of ['0/4', '5/4', '1/0', '1', 'a/b', '-1/2']) expect(() => parseShard(bad)).toThrow(/K\/N/);
  });
});

describe('rows --merge sets aside', () => {
  it('counts the judge only when the scorer is a judge', () => {
    const exact = { ...DEFAULT_RUN_CONFIG, scorer: { kind: 'exact' as const } };
    const judged = { ...DEFAULT_RUN_CONFIG, scorer: { kind: 'judge' as const } };
    expect(scoringIdentity(exact, endpoints('j1'))).toBe(scoringIdentity(exact, endpoints('j2')));
    expect(scoringIdentity(judged, endpoints('j1'))).not.toBe(scoringIdentity(judged, endpoints('j2')));
  });

  it('never reuses a row of another judge, another item text, or an error; reuses the rest by cache key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shard-file-'));
    const items = ['a', 'b', 'c', 'd'].map((id) => item(id));
    const file = join(dir, 's.jsonl');
    const judged = { ...DEFAULT_RUN_CONFIG, scorer: { kind: 'judge' as const } };
    const byItems = new Map(items.map((i) => [i.id, i]));
    const write = (f: string, rows: RolloutRow[], judge: string) =>
      writeShardFile(f, rows, {
        shard: '1/1',
        items: byItems,
        scoring: scoringIdentity(judged, endpoints(judge)),
        target: 't',
      });
    write(file, [row('a'), row('b'), row('c', 'error')], 'j1');
    write(join(dir, 'other-judge.jsonl'), [row('d')], 'j2');
    const now = items.map((i) => (i.id === 'b' ? item('b', 'q b, reworded') : i));
    expect(itemHash(now[1])).not.toBe(itemHash(items[1]));
    const merged = MergedRollouts.read(
      [file, join(dir, 'other-judge.jsonl')],
      now,
      scoringIdentity(judged, endpoints('j1')),
    );
    expect(merged.setAside).toEqual({ errored: 1, otherItem: 1, otherScoring: 1 });
    const store = merged.over(new MemoryRunStore());
    expect((await store.findRollout('run', 'h|a|t'))?.hard).toBe(1);
    for (const id of ['b', 'c', 'd']) expect(await store.findRollout('run', `h|${id}|t`)).toBeUndefined();
    expect(merged.json()).toMatchObject({ used: 1, notUsed: 0 });
  });
});
