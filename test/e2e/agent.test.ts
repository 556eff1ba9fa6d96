// An agent's skill trained in the page (issue #30): the parts-desk example (a dataset that declares
// its lookup tool), the trajectory inspector turn by turn, in both themes and at phone width.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/chromium';
import { connect, readRuns, setKnobs, waitForStatus } from './support/app';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { LOOKUP, NUMBER, DOUBLE, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';

const appUrl = inject('appUrl');
const skip = inject('e2eSkipReason');

describe.skipIf(Boolean(skip))('an agent with tools, in Chromium', () => {
  let srv: LlmTestServer;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync('test-results', { recursive: true });
    srv = await startLlmServer({ latencyMs: 5, agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(appUrl);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.close();
  });

  it('trains the parts-desk example: the agent stops looping, looks parts up by number, and the inspector shows each turn', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('Example').selectOption('parts-desk');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByText(/parts-desk\.json/).first().waitFor();
    await page.getByText(/\d+ train · \d+ validation · \d+ test/).waitFor();
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { Epochs: '2', 'Batch size': '12' });
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');

    const [run] = await readRuns(page);
    const best = run.state!.gate.bestSkill;
    expect(best).toContain(LOOKUP);
    expect(best).toContain(NUMBER);
    expect(best).not.toContain(DOUBLE);
    expect(run.state!.gate.bestScore).toBe(1);

    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    // Step 1 ran the starting skill's loop: its items ran out of turns.
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    await page.getByText(/^Step 1 — /).waitFor();
    const table = page.getByRole('region', { name: 'Rollouts of this step' });
    await table.waitFor();
    await table.getByRole('button', { name: /^Trajectory of / }).first().click();
    const trajectory = page.getByRole('region', { name: /^Trajectory of / });
    await trajectory.waitFor();
    const text = await trajectory.innerText();
    expect(text).toMatch(/8 turns/);
    expect(text).toMatch(/ran out of turns \(8 turns; last: turn 8 called lookup/);
    expect(text).toMatch(/→ lookup\(\{"code":"[A-Z]{3}-\d+"\}\)/);
    expect(text).toMatch(/← lookup: no result for these arguments/);
    await trajectory.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-trajectory-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/runs-trajectory-dark.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await trajectory.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-trajectory-phone-dark.png' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  }, 180_000);
});
