// The MCP world in the page (issue #31): the agentic rule world's tools served by the SDK's own MCP
// server on 127.0.0.1, the dataset declaring none, the skill a package read on demand. Data's MCP
// card adds the server (its refund tool, which changes things, ticked by hand), the run trains
// end to end, and the kept skill is judged as bench:quality judges it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { strToU8, zipSync } from 'fflate';
import { appSession, skip } from './support/session';
import { connect, knob, readRuns, setKnobs, uploadDataset, waitForStatus } from './support/app';
import { shootThemes } from './support/shots';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { agenticMcpTools, mcpAgenticDatasetText } from '../support/mcp-agentic-world';
import { START_SKILL_MD, START_UNITS_MD, UNITS_PATH } from '../support/agentic-world';
import { AGENTIC_NOISE, agenticDataset, agenticHeldOut } from '../support/bench-agentic';


describe.skipIf(Boolean(skip))('the MCP world, in Chromium', () => {
  let llm: LlmTestServer;
  let mcp: McpTestServer;
  // Errors, warnings and uncaught page errors are collected; each test checks none came.
  const session = appSession();
  let page: Page;
  const problems = session.consoleProblems;

  beforeAll(async () => {
    page = session.page;
    llm = await startLlmServer({ world: 'agentic', targetNoise: AGENTIC_NOISE.agentic, noiseSeed: 1 });
    mcp = await startMcpServer({ name: 'desk', tools: agenticMcpTools() });
  });

  afterAll(async () => {
    await llm?.close();
    await mcp?.close();
  });

  it('trains the agentic world against a real MCP server to a skill that holds on the test items', async () => {
    await connect(page, llm.url, 'sk-e2e-key');
    await uploadDataset(page, 'desk.json', mcpAgenticDatasetText());
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    const zip = zipSync({ 'desk/SKILL.md': strToU8(START_SKILL_MD), [`desk/${UNITS_PATH}`]: strToU8(START_UNITS_MD) });
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill package', { exact: true }).setInputFiles({ name: 'desk.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await page.getByRole('region', { name: 'Package files' }).getByText(UNITS_PATH).waitFor();

    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('MCP server URL').fill(mcp.url);
    await page.getByRole('button', { name: 'Test MCP server' }).click();
    await page.getByText(/desk 1\.0\.0: 4 tools — connected/).waitFor();
    // refund changes things: left unticked until the person allows it.
    const refund = page.getByRole('checkbox', { name: /refund/ });
    expect(await refund.isChecked()).toBe(false);
    await refund.check();
    await page.getByRole('button', { name: 'Use this server (4 tools)' }).click();
    await page.getByText(mcp.url).waitFor();
    // Tool calls have their own knobs, kept with the run.
    await page.getByLabel('Tool calls at once').fill('3');
    await page.getByLabel('Tool time limit (s)').fill('30');
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'MCP servers' }) });
    await shootThemes(page, card, 'data-mcp-server-kept');

    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'References on demand')).check();
    await setKnobs(page, {
      'Maximum turns': '8',
      Epochs: '2',
      'Batch size': '20',
      'Minibatch size': '5',
      'Merge batch size': '3',
      'Slow-update samples': '10',
      'Target concurrency': '4',
      'Optimizer concurrency': '4',
      Seed: '1',
    });
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, /Completed|Paused|Failed/, 480_000);
    expect(await page.getByRole('status').first().innerText()).toMatch(/Completed/);

    const [run] = await readRuns(page);
    const kept = (run as { environment?: { mcp?: unknown } }).environment?.mcp;
    expect(kept).toEqual({ servers: [{ url: mcp.url, tools: ['lookup', 'convert', 'search_orders', 'refund'] }], toolConcurrency: 3, timeoutSeconds: 30 });
    const calls = mcp.log.filter((e) => e.method === 'tools/call');
    expect(new Set(calls.map((e) => e.tool))).toEqual(new Set(['lookup', 'convert', 'search_orders', 'refund']));
    expect(agenticHeldOut(run.state!.gate.bestSkill, agenticDataset()).accuracy).toBeGreaterThanOrEqual(0.95);
    expect(problems).toEqual([]);
  }, 600_000);
});
