// The zero-key demo (issue #11): the rule world simulated inside the worker, behind the real
// SDK, with no server at all — a full run learns the rules.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openTab } from '../support/api-harness';
import { DEMO_BASE_URL, DEMO_KEY, DEMO_MODELS, fnvFraction } from '../../src/worker/demo-endpoint';
import { makeWorldItems } from '../../src/core/simulators/demo-world';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { INITIAL_SKILL, SMALL_CONFIG } from '../support/harness';

const endpoints = { target: { baseURL: DEMO_BASE_URL, model: DEMO_MODELS.target }, optimizer: { baseURL: DEMO_BASE_URL, model: DEMO_MODELS.optimizer } };

describe('demo endpoint', () => {
  it('answers connection checks and model lists in the worker', async () => {
    const tab = await openTab();
    await tab.remote.setKeys({ target: DEMO_KEY, optimizer: DEMO_KEY, hosts: { target: DEMO_BASE_URL, optimizer: DEMO_BASE_URL } }, false);
    expect((await tab.remote.testConnection(endpoints)).map((c) => c.ok)).toEqual([true, true]);
    expect(await tab.remote.listModels({ baseURL: DEMO_BASE_URL })).toEqual({ ok: true, models: ['simulated-optimizer', 'simulated-target'] });
    tab.close();
  });

  it('trains a skill end to end with no server and no key', async () => {
    const tab = await openTab({ demoLatencyMs: 0 });
    await tab.remote.setKeys({ target: DEMO_KEY, optimizer: DEMO_KEY, hosts: { target: DEMO_BASE_URL, optimizer: DEMO_BASE_URL } }, false);
    const ds = await tab.remote.importDataset(JSON.stringify(makeWorldItems(100)), { name: 'Demo', ratio: [2, 1, 2], splitSeed: 7 });
    if (!ds.ok) throw new Error(ds.error.message);
    const created = await tab.remote.createRun({ datasetId: ds.dataset.id, config: { ...DEFAULT_RUN_CONFIG, ...SMALL_CONFIG }, initialSkill: INITIAL_SKILL, endpoints });
    if (!created.ok) throw new Error(created.error.message);
    const r = await tab.remote.startRun(created.runId);
    expect(r).toMatchObject({ ok: true, status: 'completed' });
    const run = await tab.remote.getRun(created.runId);
    if (!run.ok) throw new Error('no run');
    expect(run.detail.summary!.tests.find((t) => t.skill === 'best')!.hard).toBeGreaterThan(0.5);
    expect(run.detail.summary!.tests.find((t) => t.skill === 'initial')!.hard).toBe(0);
    tab.close();
  }, 60_000);

  it('its "randomness" is a stable fraction in [0, 1) (property)', () => {
    fc.assert(fc.property(fc.string(), (s) => fnvFraction(s) >= 0 && fnvFraction(s) < 1 && fnvFraction(s) === fnvFraction(s)));
  });
});
