/** Issue #9 item 21: the run bundle is written page by page into a Blob, and reads back whole. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openSkillwrightDb, type SkillwrightDb } from '../../src/storage/open-db';
import { parseBundle } from '../../src/storage/bundle';
import { exportRunFile } from '../support/bundle-file';
import { putRun } from '../../src/storage/runs-repo';
import { RUN_DATA_STORES } from '../../src/storage/schema';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { RolloutRow, StepRecord } from '../../src/engine/types';

async function seed(db: SkillwrightDb, runId: string, rollouts: number): Promise<void> {
  await putRun(db, {
    id: runId, name: runId, datasetId: 'none', createdAt: 0, updatedAt: 0, status: 'completed', config: DEFAULT_RUN_CONFIG, initialSkill: '# s',
    endpoints: { target: { baseURL: 'http://x/v1', model: 't', headers: { Authorization: 'Bearer sk-secret' } }, optimizer: { baseURL: 'http://x/v1', model: 'o' } }, prices: {},
  });
  const tx = db.transaction(['rollouts', 'steps', 'calls'], 'readwrite');
  for (let i = 0; i < rollouts; i++) {
    const row: RolloutRow = {
      runId, phase: `s${String(Math.floor(i / 700) + 1).padStart(4, '0')}/gate`, order: i % 700, itemId: `q${i}`, skillHash: 'h', cacheKey: `h|q${i}|t`,
      status: 'ok', response: `${runId} answer ${i} `.repeat(120), predicted: 'x', hard: i % 2, soft: 0.5,
      usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: 0 }, latencyMs: 1, cached: false,
    };
    void tx.objectStore('rollouts').put(row);
  }
  for (let s = 1; s <= 3; s++) void tx.objectStore('steps').put({ runId, step: s, epoch: 1, action: 'reject' } as StepRecord);
  await tx.done;
}

describe('exportRunFile', () => {
  it('pages through every row of the run, and only of the run, into a file that parses as the bundle', async () => {
    const db = await openSkillwrightDb('bundle-file-1');
    // Neighbours whose ids sort just before and after, so a loose key range would pick them up.
    await seed(db, 'run-a', 40);
    await seed(db, 'run-b', 2_345); // several pages of 500, and a text of about 7 MB (more than one flush)
    await seed(db, 'run-b2', 40);
    const file = await exportRunFile(db, 'run-b');
    expect(file).toBeInstanceOf(Blob);
    expect(file!.size).toBeGreaterThan(4 * 1024 * 1024);
    const text = await file!.text();
    expect(text).not.toContain('sk-secret');
    const parsed = parseBundle(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const b = parsed.bundle;
    for (const store of RUN_DATA_STORES) expect(b[store]).toEqual(await db.getAllFromIndex(store, 'by-run', 'run-b'));
    expect(b.rollouts).toHaveLength(2_345);
    expect(new Set(b.rollouts.map((r) => r.itemId)).size).toBe(2_345);
    expect(b.run.endpoints.target.headers).toEqual({});
    expect(await exportRunFile(db, 'missing')).toBeNull();
  });

  it('writes valid JSON for a run with no rows', async () => {
    const db = await openSkillwrightDb('bundle-file-2');
    await seed(db, 'empty', 0);
    const parsed = parseBundle(await (await exportRunFile(db, 'empty'))!.text());
    expect(parsed.ok && parsed.bundle.rollouts).toEqual([]);
  });
});

describe('importing a bundle checks its whole run config (issue #20 item 12)', () => {
  it('refuses a bundle whose edit budget is markup, naming the setting', async () => {
    const db = await openSkillwrightDb(`bundle-cfg-${Date.now()}`);
    await seed(db, 'cfg', 0);
    const text = await (await exportRunFile(db, 'cfg'))!.text();
    const bundle = JSON.parse(text) as { run: { config: Record<string, unknown> } };
    bundle.run.config.editBudget = '<meta http-equiv="refresh" content="0">';
    const parsed = parseBundle(JSON.stringify(bundle));
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/run settings are invalid: .*edit budget must be a whole number/);
    // A bundle from an older version, missing newer settings, still imports with the defaults.
    delete bundle.run.config.editBudget;
    const older = parseBundle(JSON.stringify(bundle));
    expect(older.ok && older.bundle.run.config.editBudget).toBe(DEFAULT_RUN_CONFIG.editBudget);
    db.close();
  });
});
