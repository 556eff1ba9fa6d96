// The runner's append-only store (issue #28 item 4): a record torn by a kill mid-write is cut off
// when the file is opened, so the next append starts a line of its own and the run stays resumable.
import { describe, expect, it } from 'vitest';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRunStore } from '../../src/storage/file-store';
import type { StepRecord } from '../../src/engine/types';

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
});
