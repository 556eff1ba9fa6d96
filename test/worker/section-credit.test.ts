// Section credit through the worker's API (issue #43 item 4), over Comlink, on a stored dataset:
// the page's "Credit sections" and "Put the drop to the gate" — effects with intervals, the drop
// judged by the gate, nothing stored.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Comlink from 'comlink';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { openTab } from '../support/api-harness';
import { CREDIT_SKILL, creditWorldItems, plantedEffects } from '../support/credit-world';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(() => srv.close());

describe('section credit in the worker', () => {
  it('credits the sections of the edited skill and puts a drop to the gate, storing nothing', async () => {
    const tab = await openTab();
    const items = creditWorldItems(24);
    const ds = await tab.remote.importDataset(JSON.stringify(items), { name: 'Credit world' });
    if (!ds.ok) throw new Error('import failed');
    await tab.remote.setKeys(
      { target: 'sk-t', optimizer: 'sk-o', hosts: { target: srv.url, optimizer: srv.url } },
      false,
    );
    const endpoints = {
      target: { baseURL: srv.url, model: 'sim-target' },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer' },
    };
    const ask = { datasetId: ds.dataset.id, skill: CREDIT_SKILL, config: DEFAULT_RUN_CONFIG, endpoints };
    const events: unknown[] = [];
    const r = await tab.remote.creditSections(
      { ...ask, budget: 240 },
      Comlink.proxy((e: unknown) => void events.push(e)),
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.calls).toBe(240);
    expect(events.length).toBeGreaterThan(0);
    const planted = plantedEffects(
      CREDIT_SKILL,
      items.filter((i) => i.split === 'val'),
    );
    r.report.sections.forEach((s, j) => {
      expect(s.low!).toBeLessThanOrEqual(planted[j]);
      expect(s.high!).toBeGreaterThanOrEqual(planted[j]);
    });
    const drop = await tab.remote.gateSectionDrop({ ...ask, sections: r.report.droppable });
    expect(drop).toMatchObject({ ok: true, accepted: true, current: 0.5, score: 1 });
    const idle = await tab.remote.gateSectionDrop({ ...ask, sections: [2] });
    // The idle section's drop ties: taken as no worse and cheaper.
    expect(idle).toMatchObject({ ok: true, accepted: true, basis: 'no_worse_cheaper' });
    const helpful = await tab.remote.gateSectionDrop({ ...ask, sections: [0] });
    expect(helpful).toMatchObject({ ok: true, accepted: false, basis: 'refused' });
    expect(await tab.db.count('rollouts')).toBe(0);
    expect(await tab.remote.listRuns()).toEqual([]);
    tab.close();
  });
});
