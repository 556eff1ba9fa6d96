import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { DB_VERSION } from '../../src/storage/schema';

let n = 0;
const dbName = () => `schema-test-${++n}`;

describe('database schema and upgrades', () => {
  it('creates every store and index of the current version', async () => {
    const db = await openSkillwrightDb(dbName());
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['artifacts', 'calls', 'datasetIndex', 'datasets', 'rollouts', 'runs', 'settings', 'skills', 'steps']);
    const tx = db.transaction(['rollouts', 'runs', 'steps']);
    expect([...tx.objectStore('rollouts').indexNames].sort()).toEqual(['by-cache', 'by-run', 'by-run-phase', 'by-skill-item']);
    expect([...tx.objectStore('runs').indexNames].sort()).toEqual(['by-status', 'by-updated']);
    expect([...tx.objectStore('steps').indexNames]).toEqual(['by-run']);
    db.close();
  });

  it('upgrades a version-1 database seeded by hand, keeping its data', async () => {
    const name = dbName();
    // Version 1 exactly as it shipped: no rollout cache indexes, runs without a name.
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('datasets', { keyPath: 'id' }).createIndex('by-created', 'createdAt');
        db.createObjectStore('runs', { keyPath: 'id' }).createIndex('by-status', 'status');
        db.createObjectStore('steps', { keyPath: ['runId', 'step'] }).createIndex('by-run', 'runId');
        db.createObjectStore('skills', { keyPath: ['runId', 'hash'] }).createIndex('by-run', 'runId');
        const r = db.createObjectStore('rollouts', { keyPath: ['runId', 'phase', 'order'] });
        r.createIndex('by-run', 'runId');
        r.createIndex('by-run-phase', ['runId', 'phase']);
        db.createObjectStore('calls', { keyPath: ['runId', 'key'] }).createIndex('by-run', 'runId');
        db.createObjectStore('artifacts', { keyPath: ['runId', 'key'] }).createIndex('by-run', 'runId');
        db.createObjectStore('settings', { keyPath: 'key' });
      },
    });
    await v1.put('skills', { runId: 'old-run', hash: 'abc', text: '# S', origin: 'initial_skill', step: 0, createdAt: 1 });
    await v1.put('runs', { id: 'old-run', createdAt: Date.UTC(2026, 0, 5), updatedAt: 5, status: 'paused', datasetId: 'd' });
    await v1.put('rollouts', { runId: 'old-run', phase: 'baseline', order: 0, itemId: 'q1', skillHash: 'abc', cacheKey: 'abc|q1|t', status: 'ok' });
    const items = Array.from({ length: 5 }, (_, i) => ({ id: `q${i}`, question: `Q${i}?`, answers: ['a'] }));
    await v1.put('datasets', { id: 'd', name: 'Old data', createdAt: 3, format: 'json', items, splits: { train: ['q0', 'q1', 'q2'], val: ['q3'], test: ['q4'] }, warnings: [], mapping: {}, fieldNames: [] });
    v1.close();

    const db = await openSkillwrightDb(name);
    expect(db.version).toBe(DB_VERSION);
    const run = await db.get('runs', 'old-run');
    expect(run?.name).toBe('Run of 2026-01-05');
    expect(run?.status).toBe('paused');
    const viaCache = await db.getAllFromIndex('rollouts', 'by-cache', ['old-run', 'abc|q1|t']);
    expect(viaCache.map((r) => r.itemId)).toEqual(['q1']);
    const viaSkillItem = await db.getAllFromIndex('rollouts', 'by-skill-item', ['old-run', 'abc', 'q1']);
    expect(viaSkillItem).toHaveLength(1);
    expect((await db.getAllFromIndex('runs', 'by-updated')).map((r) => r.id)).toEqual(['old-run']);
    // Version 3: the datasets stored before are in the light index, so they are still listed.
    const { listDatasets } = await import('../../src/storage/datasets-repo');
    expect(await listDatasets(db)).toEqual([{ id: 'd', name: 'Old data', createdAt: 3, format: 'json', counts: { train: 3, val: 1, test: 1 }, warnings: [], testLooks: 0 }]);
    // Version 4: skill versions are keyed by origin, and the old ones moved over.
    expect(db.transaction('skills').store.keyPath).toEqual(['runId', 'origin']);
    expect((await db.getAllFromIndex('skills', 'by-run', 'old-run')).map((v) => v.origin)).toEqual(['initial_skill']);
    db.close();
  });
});
