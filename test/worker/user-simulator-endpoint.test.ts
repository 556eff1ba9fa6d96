// A separate user-simulator endpoint in the page (issue #31): tested with its own key, and a run's
// conversations ask it — never the optimizer's endpoint — for the user's turns.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { openTab } from '../support/api-harness';
import { conversationPolicy } from '../support/conversation-agent';
import { conversationOptimizerAnswer } from '../support/conversation-optimizer';
import { START_SKILL, conversationDatasetText } from '../support/conversation-world';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';

const SIM_KEY = 'sk-user-simulator-only';
let main: LlmTestServer;
let sim: LlmTestServer;
beforeAll(async () => {
  main = await startLlmServer({
    agentPolicy: conversationPolicy(),
    optimizerHook: (stage, system, user) => conversationOptimizerAnswer(stage, system, user, { noise: 0 }),
  });
  sim = await startLlmServer({ apiKey: SIM_KEY });
});
afterAll(async () => {
  await main.close();
  await sim.close();
});

describe('the user simulator’s own endpoint (issue #31)', () => {
  it('is tested with its own key, and plays the users of a run’s conversations', async () => {
    const tab = await openTab();
    const endpoints = {
      target: { baseURL: main.url, model: 'sim-target' },
      optimizer: { baseURL: main.url, model: 'sim-optimizer' },
      userSimulator: { baseURL: sim.url, model: 'sim-optimizer' },
    };
    const hosts = { target: main.url, optimizer: main.url, userSimulator: sim.url };
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', userSimulator: SIM_KEY, hosts }, false);
    expect(await tab.remote.keyStatus()).toMatchObject({ userSimulator: true });
    const checks = await tab.remote.testConnection(endpoints);
    expect(checks.map((c) => [c.role, c.ok])).toEqual([
      ['target', true],
      ['optimizer', true],
      ['userSimulator', true],
    ]);

    const ds = await tab.remote.importDataset(conversationDatasetText(), { name: 'Orders desk' });
    if (!ds.ok) throw new Error(ds.error.message);
    const config = { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 8, minibatchSize: 4, mergeBatchSize: 3, slowUpdateSamples: 8, maxTurns: 6, targetConcurrency: 3, optimizerConcurrency: 3 };
    const created = await tab.remote.createRun({ datasetId: ds.dataset.id, config, initialSkill: START_SKILL, endpoints });
    if (!created.ok) throw new Error(created.error.message);
    // Scoring a skill without a run plays the users there too, with the simulator's key only.
    await tab.remote.setKeys({ target: 'k', userSimulator: SIM_KEY, hosts: { target: main.url, userSimulator: sim.url } }, false);
    const evaluation = await tab.remote.evaluateSkill({ datasetId: ds.dataset.id, split: 'val', limit: 4, skill: START_SKILL, config, endpoints });
    expect(evaluation).toMatchObject({ ok: true, n: 4, errors: 0 });
    expect(sim.log.filter((e) => e.stage === 'user_simulator' && e.status === 200).length).toBeGreaterThan(0);
    main.log.length = 0;
    sim.log.length = 0;
    expect(await tab.remote.startRun(created.runId)).toMatchObject({ ok: true, status: 'completed' });
    const asked = sim.log.filter((e) => e.stage === 'user_simulator' && e.status === 200).length;
    expect(asked).toBeGreaterThan(10);
    expect(main.log.filter((e) => e.stage === 'user_simulator')).toEqual([]);
    // Its calls are metered as their own stage.
    const run = await tab.db.get('runs', created.runId);
    expect(run?.state?.summary?.usage?.userSimulator?.calls).toBe(asked);
    // A run file keeps the simulator's endpoint (never its key), and an imported run has it again.
    const exported = await tab.remote.exportRun(created.runId);
    if (!exported.ok) throw new Error(exported.error.message);
    const text = await exported.file.text();
    expect(text).not.toContain(SIM_KEY);
    const imported = await tab.remote.importRun(new Blob([text]));
    if (!imported.ok) throw new Error(imported.error.message);
    expect((await tab.db.get('runs', imported.runId))?.endpoints.userSimulator).toEqual(endpoints.userSimulator);
    tab.close();
  }, 90_000);
});
