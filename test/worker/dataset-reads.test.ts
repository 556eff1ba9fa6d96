// Issue #20 items 15 and 17: the Runs screen, the report and the cost estimate do not read a whole dataset
// (up to 100 MB) each time: split sizes and names come from the dataset index, and the estimate's
// sample is read once per dataset.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { newRun, openTab } from '../support/api-harness';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { SMALL_CONFIG } from '../support/harness';
import { seedHistory } from '../support/bench-history';
import { keptLines } from '../../src/core/skill/edit-blame';

describe('reads of whole datasets', () => {
  it('getRun, the report and repeated estimates read the dataset once at most', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, 'http://127.0.0.1:9/v1');
    const run = await tab.remote.getRun(runId);
    if (!run.ok) throw new Error(run.error.message);
    const datasetId = (await tab.remote.listDatasets())[0].id;
    let reads = 0;
    const db = tab.db as unknown as { get: (...a: unknown[]) => Promise<unknown> };
    const get = db.get.bind(tab.db);
    db.get = (store: unknown, ...rest: unknown[]) => {
      if (store === 'datasets') reads++;
      return get(store, ...rest);
    };
    for (let i = 0; i < 3; i++) {
      const again = await tab.remote.getRun(runId);
      expect(again.ok && again.detail.totalSteps).toBe(run.detail.totalSteps);
    }
    expect(run.detail.totalSteps).toBeGreaterThan(0);
    expect((await tab.remote.exportReport(runId)).ok).toBe(true);
    expect(reads).toBe(0);
    const config = { ...DEFAULT_RUN_CONFIG, ...SMALL_CONFIG };
    const first = await tab.remote.estimateCost({ datasetId, config, skill: '# S' });
    for (let i = 0; i < 3; i++) {
      const next = await tab.remote.estimateCost({ datasetId, config: { ...config, epochs: 2 + i }, skill: '# S' });
      expect(next.ok).toBe(true);
    }
    expect(first.ok).toBe(true);
    expect(reads).toBe(1);
    tab.close();
  });
});

describe('reads of a long run (issue #20 item 17)', () => {
  it('the report and the blame read the versions once and each step a fixed number of times', async () => {
    const tab = await openTab();
    const texts = await seedHistory(tab.db, 'long', 60, 200);
    const counts = { skills: 0, skillItem: 0 };
    const db = tab.db as unknown as { getAllFromIndex: (...a: unknown[]) => Promise<unknown> };
    const inner = db.getAllFromIndex.bind(tab.db);
    db.getAllFromIndex = (store: unknown, index: unknown, ...rest: unknown[]) => {
      if (store === 'skills') counts.skills++;
      if (index === 'by-skill-item') counts.skillItem++;
      return inner(store, index, ...rest);
    };
    expect((await tab.remote.exportReport('long')).ok).toBe(true);
    expect(counts.skills).toBeLessThanOrEqual(2); // the gate table's read and the blame's, whatever the steps
    expect(counts.skillItem).toBeLessThanOrEqual(60); // one per step at most, not one per gate item
    counts.skills = 0;
    expect((await tab.remote.blameSkill('long', texts[texts.length - 1])).ok).toBe(true);
    expect(counts.skills).toBe(1);
    tab.close();
  });

  it('matching two skills that differ at both ends stays linear in memory', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    const b = ['first', ...a.slice(1, 10_000), 'middle', ...a.slice(10_000, -1), 'last'];
    const before = process.memoryUsage().arrayBuffers;
    const kept = keptLines(a, b);
    // A table of the longest common subsequence would hold 20 001² cells (1.6 GB).
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(50 * 1024 * 1024);
    expect(kept.filter((k) => k >= 0)).toHaveLength(19_998);
  });
});
