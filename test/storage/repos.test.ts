import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { IdbRunStore } from '../../src/storage/idb-run-store';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { deleteRun, listRuns, markInterrupted, putRun, renameRun, setRunStatus, withStatus } from '../../src/storage/runs-repo';
import { RUN_DATA_STORES } from '../../src/storage/schema';
import type { SkillwrightDb } from '../../src/storage/open-db';

async function countRunRows(db: SkillwrightDb, id: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of RUN_DATA_STORES) out[name] = await db.countFromIndex(name, 'by-run', id);
  return out;
}
import { forgetKeys, getRememberedKeys, rememberKeys } from '../../src/storage/settings-repo';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { DatasetRecord, RunRecord } from '../../src/storage/schema';
import { listDatasets, noteTestLook, putDataset } from '../../src/storage/datasets-repo';
import type { RolloutRow } from '../../src/engine/types';
import { isPauseError } from '../../src/engine/pause';
import { guardQuota } from '../../src/storage/quota';

let n = 0;
const open = () => openSkillwrightDb(`repo-test-${++n}`);

const run = (id: string, updatedAt = 1): RunRecord => ({
  id,
  name: `Run ${id}`,
  datasetId: 'ds',
  createdAt: 1,
  updatedAt,
  status: 'idle',
  config: DEFAULT_RUN_CONFIG,
  initialSkill: '# S',
  endpoints: { target: { baseURL: 'http://x/v1', model: 't' }, optimizer: { baseURL: 'http://x/v1', model: 'o' } },
  prices: {},
});

const row = (runId: string, phase: string, order: number, status: 'ok' | 'error' = 'ok'): RolloutRow => ({
  runId, phase, order, itemId: `q${order}`, skillHash: 'h', cacheKey: `h|q${order}|t`, status, response: 'r', predicted: 'p', hard: 1, soft: 1,
  usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 }, latencyMs: 1, cached: false,
});

describe('IdbRunStore', () => {
  it('writes and reads every kind of checkpoint', async () => {
    const db = await open();
    await putRun(db, run('r1'));
    const store = new IdbRunStore(db);
    await store.putRollout(row('r1', 'baseline', 1));
    await store.putRollout(row('r1', 'baseline', 0));
    await store.putRollout(row('r1', 's0001/rollout', 0, 'error'));
    expect((await store.getRollouts('r1', 'baseline')).map((r) => r.order)).toEqual([0, 1]);
    expect(await store.findRollout('r1', 'h|q0|t')).toMatchObject({ phase: 'baseline' });
    await store.putCall({ runId: 'r1', key: 's0001/rank_edits', stage: 'rank_edits', requestPreview: '', raw: '{}', parsed: {}, ok: true, usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 }, latencyMs: 1 });
    expect(await store.getCall('r1', 's0001/rank_edits')).toMatchObject({ ok: true });
    await store.putSkillVersion({ runId: 'r1', hash: 'a', text: 'A', origin: 'initial_skill', step: 0, createdAt: 1 });
    await store.putSkillVersion({ runId: 'r1', hash: 'a', text: 'A again', origin: 'step_0002', step: 2, createdAt: 2 });
    expect((await store.getSkillVersions('r1')).map((v) => v.origin)).toEqual(['initial_skill', 'step_0002']);
    await store.putStep({ runId: 'r1', step: 2 } as never);
    await store.putStep({ runId: 'r1', step: 1 } as never);
    expect((await store.getSteps('r1')).map((s) => s.step)).toEqual([1, 2]);
  });

  it('keeps the run record and its state together', async () => {
    const db = await open();
    await putRun(db, run('r1'));
    const store = new IdbRunStore(db);
    await store.saveState({ runId: 'r1', status: 'running', updatedAt: 9 } as never);
    const r = await db.get('runs', 'r1');
    expect(r?.status).toBe('running');
    expect(r?.updatedAt).toBe(9);
    expect((await store.loadState('r1'))?.status).toBe('running');
    await expect(store.saveState({ runId: 'nope' } as never)).rejects.toThrow(/does not exist/);
  });

  it('turns a quota failure into a paused run that says how much space is used', async () => {
    const quotaError = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    const e = await guardQuota(() => Promise.reject(quotaError), async () => ({ usage: 50 * 1024 * 1024, quota: 60 * 1024 * 1024 })).catch((x) => x);
    expect(isPauseError(e)).toBe(true);
    expect(e.kind).toBe('storage');
    expect(e.message).toMatch(/Skillwright uses 50\.0 MB of the 60\.0 MB.*deleting old runs/);
  });
});

describe('runs repository', () => {
  it('lists by last update, renames, and deletes a run with all its rows', async () => {
    const db = await open();
    await putRun(db, run('old', 1));
    await putRun(db, run('new', 2));
    expect((await listRuns(db)).map((r) => r.id)).toEqual(['new', 'old']);
    expect(await renameRun(db, 'old', '  Better name ')).toBe(true);
    expect((await listRuns(db)).find((r) => r.id === 'old')?.name).toBe('Better name');
    const store = new IdbRunStore(db);
    for (let i = 0; i < 30; i++) await store.putRollout(row('old', 'baseline', i));
    await store.putRollout(row('new', 'baseline', 0));
    await store.putCall({ runId: 'old', key: 'k', stage: 's', requestPreview: '', raw: '', parsed: null, ok: false, usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 }, latencyMs: 0 });
    await store.putArtifact({ runId: 'old', key: 'a', value: 1 });
    await store.putStep({ runId: 'old', step: 1 } as never);
    await store.putSkillVersion({ runId: 'old', hash: 'x', text: '', origin: 'o', step: 0, createdAt: 0 });
    await deleteRun(db, 'old');
    expect(await countRunRows(db, 'old')).toEqual({ steps: 0, skills: 0, rollouts: 0, calls: 0, artifacts: 0 });
    expect(await db.get('runs', 'old')).toBeUndefined();
    expect((await countRunRows(db, 'new')).rollouts).toBe(1);
  });

  it('marks runs found running at start-up as interrupted, unless another tab owns them', async () => {
    const db = await open();
    await putRun(db, { ...run('a'), status: 'running', state: { status: 'running' } as never });
    await putRun(db, { ...run('b'), status: 'running' });
    await putRun(db, { ...run('c'), status: 'paused' });
    expect(await markInterrupted(db, async (id) => id === 'b')).toEqual(['a']);
    const a = await db.get('runs', 'a');
    expect(a?.status).toBe('interrupted');
    expect(a?.state?.reason).toMatch(/interrupted/);
    expect((await db.get('runs', 'b'))?.status).toBe('running');
  });

  it('changes a status in one place: the record, its state and the status index move together', async () => {
    const db = await open();
    await putRun(db, { ...run('a'), status: 'paused', state: { status: 'paused', reason: 'Budget reached.', reasonKind: 'budget' } as never });
    const next = await setRunStatus(db, 'a', 'cancelled', { reason: 'Cancelled by you.', reasonKind: 'user' }, 99);
    const stored = await db.get('runs', 'a');
    expect(stored).toEqual(next);
    expect(stored).toMatchObject({ status: 'cancelled', updatedAt: 99, state: { status: 'cancelled', reason: 'Cancelled by you.', reasonKind: 'user' } });
    expect((await db.getAllFromIndex('runs', 'by-status', 'cancelled')).map((r) => r.id)).toEqual(['a']);
    expect(await setRunStatus(db, 'missing', 'cancelled', { reason: '', reasonKind: 'user' }, 1)).toBeUndefined();
    // Without a reason given, the state keeps its own (an import turning "running" into "interrupted").
    expect(withStatus({ ...run('b'), state: { status: 'running', reason: 'kept' } as never }, 'interrupted')).toMatchObject({ status: 'interrupted', state: { status: 'interrupted', reason: 'kept' } });
    // The engine's checkpoints carry the status in the state; the record follows it.
    await new IdbRunStore(db).saveState({ ...(stored!.state as object), runId: 'a', status: 'running', updatedAt: 100 } as never);
    expect(await db.get('runs', 'a')).toMatchObject({ status: 'running', state: { status: 'running' } });
  });
});

describe('settings and keys', () => {
  it('stores keys only through the explicit remember call, and forgets them', async () => {
    const db = await open();
    expect(await getRememberedKeys(db)).toEqual({});
    await rememberKeys(db, { target: 'sk-t', optimizer: 'sk-o' });
    expect(await getRememberedKeys(db)).toEqual({ target: 'sk-t', optimizer: 'sk-o' });
    await forgetKeys(db);
    expect(await getRememberedKeys(db)).toEqual({});
  });
});

describe('datasets repository (issue #20 item 9)', () => {
  it('records test looks in one transaction on the index, never rewriting the dataset', async () => {
    const db = await open();
    const items = [{ id: 'a', question: 'q', answers: ['x'], split: 'test' as const }];
    const d: DatasetRecord = {
      id: 'd', name: 'D', createdAt: 1, format: 'json', fieldNames: [], warnings: [],
      splits: { train: [], val: [], test: items },
    } as unknown as DatasetRecord;
    await putDataset(db, d);
    const stored = await db.get('datasets', 'd');
    // Two looks at once: a read-modify-write over two transactions kept only one of them.
    await Promise.all([noteTestLook(db, 'd', 'first', 1), noteTestLook(db, 'd', 'second', 2)]);
    expect((await listDatasets(db))[0].testLooks).toBe(2);
    expect((await db.get('datasetIndex', 'd'))!.testLookLog!.map((l) => l.what).sort()).toEqual(['first', 'second']);
    expect(await db.get('datasets', 'd')).toEqual(stored);
    expect(await noteTestLook(db, 'missing', 'x', 3)).toBe(0);
    db.close();
  });
});

describe('skill versions (issue #20 item 8)', () => {
  it('a text that recurs is a version of its own, so the chain of versions holds', async () => {
    const db = await open();
    const store = new IdbRunStore(db);
    const v = (origin: string, text: string, step: number) => ({ runId: 'r', hash: `h-${text}`, text, origin, step, createdAt: step });
    await store.putSkillVersion(v('initial_skill', 'A', 0));
    await store.putSkillVersion(v('step_0001', 'B', 1));
    await store.putSkillVersion(v('step_0002', 'A', 2)); // step 2 undid step 1
    await store.putSkillVersion(v('step_0002', 'A', 2)); // a resumed step saves it again: once
    const versions = await store.getSkillVersions('r');
    expect(versions.map((x) => [x.origin, x.text])).toEqual([['initial_skill', 'A'], ['step_0001', 'B'], ['step_0002', 'A']]);
    const mem = new MemoryRunStore();
    for (const x of [v('initial_skill', 'A', 0), v('step_0001', 'B', 1), v('step_0002', 'A', 2)]) await mem.putSkillVersion(x);
    expect((await mem.getSkillVersions('r')).map((x) => x.origin)).toEqual(['initial_skill', 'step_0001', 'step_0002']);
    db.close();
  });
});
