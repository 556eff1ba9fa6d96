// A separate LLM-judge endpoint (issue #11): the judge scorer calls it, with its own key, and
// neither the optimizer's endpoint nor its key is used for judging.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { openTab, WORLD_TEXT } from '../support/api-harness';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';

let main: LlmTestServer;
let judge: LlmTestServer;
beforeAll(async () => {
  main = await startLlmServer();
  judge = await startLlmServer({ apiKey: 'sk-judge-only' });
});
afterAll(async () => {
  await main.close();
  await judge.close();
});

describe('judge endpoint', () => {
  it('tests the judge with its own key, and judges an evaluation there', async () => {
    const tab = await openTab();
    const endpoints = {
      target: { baseURL: main.url, model: 'sim-target' },
      optimizer: { baseURL: main.url, model: 'sim-optimizer' },
      judge: { baseURL: judge.url, model: 'sim-optimizer' },
    };
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', judge: 'sk-judge-only', hosts: { target: main.url, optimizer: main.url, judge: judge.url } }, false);
    const checks = await tab.remote.testConnection(endpoints);
    expect(checks.map((c) => [c.role, c.ok])).toEqual([['target', true], ['optimizer', true], ['judge', true]]);

    const ds = await tab.remote.importDataset(WORLD_TEXT, { name: 'World', ratio: [2, 1, 2], splitSeed: 7 });
    if (!ds.ok) throw new Error(ds.error.message);
    main.log.length = 0;
    judge.log.length = 0;
    const r = await tab.remote.evaluateSkill({ datasetId: ds.dataset.id, split: 'val', limit: 5, skill: '# Skill', config: { ...DEFAULT_RUN_CONFIG, scorer: { kind: 'judge' } }, endpoints });
    expect(r).toMatchObject({ ok: true, n: 5 });
    expect(judge.log.filter((e) => e.stage === 'judge' && e.status === 200)).toHaveLength(5);
    expect(main.log.filter((e) => e.stage === 'judge')).toEqual([]);
    tab.close();
  });
});
