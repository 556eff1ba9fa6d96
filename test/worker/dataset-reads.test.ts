// Issue #20 item 15: the Runs screen, the report and the cost estimate do not read a whole dataset
// (up to 100 MB) each time: split sizes and names come from the dataset index, and the estimate's
// sample is read once per dataset.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { newRun, openTab } from '../support/api-harness';
import { DEFAULT_RUN_CONFIG } from '../../src/core/run-config';
import { SMALL_CONFIG } from '../support/harness';

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
