// The simulated-user world in the page (issue #31): Connect gives the user simulator an endpoint
// of its own (tested with its own key), the orders desk's customers are played there, and the run
// trains end to end; the kept skill is judged as bench:quality judges it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, skip } from './support/session';
import { connect, readRuns, setKnobs, uploadDataset, waitForStatus } from './support/app';
import { shootThemes } from './support/shots';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { conversationPolicy } from '../support/conversation-agent';
import { conversationOptimizerAnswer } from '../support/conversation-optimizer';
import { START_SKILL, conversationDatasetText } from '../support/conversation-world';
import { conversationDataset, conversationHeldOut } from '../support/bench-simulated-user';

const SIM_KEY = 'sk-user-simulator-e2e-5';
const NOISE = { miss: 0.05, guess: 0.03 };

describe.skipIf(Boolean(skip))('simulated users, in Chromium', () => {
  let llm: LlmTestServer;
  let sim: LlmTestServer;
  // Errors, warnings and uncaught page errors are collected; each test checks none came.
  const session = appSession();
  let page: Page;
  const problems = session.consoleProblems;

  beforeAll(async () => {
    page = session.page;
    llm = await startLlmServer({
      targetNoise: NOISE,
      noiseSeed: 1,
      agentPolicy: conversationPolicy(NOISE),
      optimizerHook: (stage, system, user) => conversationOptimizerAnswer(stage, system, user, { noise: 1 }),
    });
    sim = await startLlmServer({ apiKey: SIM_KEY });
  });

  afterAll(async () => {
    await llm?.close();
    await sim?.close();
  });

  it('plays the customers on the simulator’s own endpoint and trains the orders desk', async () => {
    await connect(page, llm.url, 'sk-e2e-key');
    await page.getByLabel('Separate user-simulator endpoint').check();
    await page.getByLabel('User simulator base URL').fill(sim.url);
    await page.getByLabel('User simulator API key').fill(SIM_KEY);
    await page.getByLabel('User simulator model').fill('sim-optimizer');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const ok = page.getByText(/connected\.$/);
    await ok.waitFor();
    expect(await ok.innerText()).toMatch(/ · User simulator sim-optimizer: \d+ ms \(structured output: json schema\) — connected\.$/);
    await shootThemes(page, page.getByText('Separate user-simulator endpoint'), 'connect-user-simulator');

    await uploadDataset(page, 'orders.json', conversationDatasetText());
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill file').setInputFiles({ name: 'orders.md', mimeType: 'text/markdown', buffer: Buffer.from(START_SKILL) });
    await page.waitForFunction((want) => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill === want, START_SKILL);

    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { 'Maximum turns': '8', Epochs: '2', 'Batch size': '20', 'Minibatch size': '5', 'Merge batch size': '3', 'Slow-update samples': '10', 'Target concurrency': '4', 'Optimizer concurrency': '4', Seed: '1' });
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, /Completed|Paused|Failed/, 480_000);
    expect(await page.getByRole('status').first().innerText()).toMatch(/Completed/);

    const [run] = await readRuns(page);
    expect((run as { initialSkill?: string }).initialSkill).toBe(START_SKILL);
    expect(sim.log.filter((e) => e.stage === 'user_simulator' && e.status === 200).length).toBeGreaterThan(100);
    expect(llm.log.filter((e) => e.stage === 'user_simulator')).toEqual([]);
    expect(conversationHeldOut(run.state!.gate.bestSkill, conversationDataset())).toBeGreaterThanOrEqual(0.95);
    expect(JSON.stringify(run)).not.toContain(SIM_KEY);
    expect(problems).toEqual([]);
  }, 600_000);
});
