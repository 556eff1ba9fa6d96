// The runner's append-only store (issue #28 item 4): a record torn by a kill mid-write is cut off
// when the file is opened, so the next append starts a line of its own and the run stays resumable.
import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRunStore } from '../../src/storage/file-store';
import type { RolloutRow, StepRecord } from '../../src/engine/types';

const step = (n: number) => ({ runId: 'r', step: n, epoch: 1, action: 'reject' }) as unknown as StepRecord;

describe('the runner’s file store', () => {
  it('cuts a torn last record off on opening, so the next append leaves a store that opens again', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sw-store-')), 'run.jsonl');
    const store = FileRunStore.open(path);
    await store.putStep(step(1));
    await store.putStep(step(2));
    appendFileSync(path, '{"t":"step","v":{"runId":"r","step":3,"ep'); // killed mid-write
    const reopened = FileRunStore.open(path);
    expect((await reopened.getSteps()).map((s) => s.step)).toEqual([1, 2]);
    await reopened.putStep(step(4));
    const again = FileRunStore.open(path);
    expect((await again.getSteps()).map((s) => s.step)).toEqual([1, 2, 4]);
    expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).every((l) => JSON.parse(l))).toBe(true);
  });

  it('names a damaged line inside the file instead of skipping it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sw-store-')), 'run.jsonl');
    writeFileSync(path, `${JSON.stringify({ t: 'step', v: step(1) })}\nnot json\n${JSON.stringify({ t: 'step', v: step(2) })}\n`);
    expect(() => FileRunStore.open(path)).toThrow(/run\.jsonl, line 2: not a record .* the run's store is damaged/);
  });

  it('is rewritten with what it holds when most of it was written over (issue #39 M4), and reads the same', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sw-store-')), 'run.jsonl');
    const store = FileRunStore.open(path);
    const row = (status: 'ok' | 'error', answer: string) =>
      ({ runId: 'r', phase: 'baseline', order: 0, itemId: 'a', cacheKey: 'c1', status, hard: 1, soft: 1, response: answer }) as unknown as RolloutRow;
    await store.putRollout(row('ok', 'first'));
    await store.putRollout(row('error', 'later'));
    await store.putStep(step(1));
    // A trajectory checkpointed turn after turn, then dropped; another kept.
    for (let turn = 1; turn <= 40; turn++) {
      await store.putArtifact({ runId: 'r', key: 'trajectory/x', value: { entries: 'e'.repeat(turn * 100) } });
      await store.putArtifact({ runId: 'r', key: 'trajectory/y', value: { entries: turn } });
    }
    await store.deleteArtifact('r', 'trajectory/x');
    const before = statSync(path).size;
    const reopened = FileRunStore.open(path);
    expect(statSync(path).size).toBeLessThan(before / 10);
    expect(await reopened.getArtifact('r', 'trajectory/x')).toBeUndefined();
    expect((await reopened.getArtifact('r', 'trajectory/y'))?.value).toEqual({ entries: 40 });
    expect((await reopened.getSteps()).map((s) => s.step)).toEqual([1]);
    // The cache still finds the first answer of the item; the phase holds its last row.
    expect((await reopened.findRollout('r', 'c1'))?.response).toBe('first');
    expect((await reopened.getRollouts('r', 'baseline')).map((r) => r.status)).toEqual(['error']);
    await reopened.putStep(step(2));
    expect((await FileRunStore.open(path).getSteps()).map((s) => s.step)).toEqual([1, 2]);
  });
});

