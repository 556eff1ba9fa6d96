// MCP servers in the page (issue #31): Test MCP server on Data names a server whose CORS keeps the
// page out (with the fix, MCP's headers named) and lists a good server's tools; the agent then
// trains against that server for real, in both themes and at phone width.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/chromium';
import { connect, readRuns, setKnobs, waitForStatus } from './support/app';
import { shootThemes } from './support/shots';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { lookupTool } from '../support/mcp-tool-world';
import { NUMBER, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';

const appUrl = inject('appUrl');
const skip = inject('e2eSkipReason');
const TOKEN = 'mcp-e2e-token-3141';

describe.skipIf(Boolean(skip))('MCP servers, in Chromium', () => {
  let srv: LlmTestServer;
  let good: McpTestServer;
  let closed: McpTestServer;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync('test-results', { recursive: true });
    srv = await startLlmServer({ latencyMs: 5, agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
    const refund = { name: 'refund', description: 'Refund an order.', inputSchema: { type: 'object', properties: {} }, handler: () => 'refunded' };
    good = await startMcpServer({ name: 'desk', tools: [lookupTool(), refund], token: TOKEN });
    closed = await startMcpServer({ name: 'strict', tools: [lookupTool()], cors: 'basic' });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    page.on('console', (m) => {
      // The browser logs the CORS refusal the test provokes; anything else is a problem.
      if (m.type() === 'error' && !/CORS|Failed to load resource|ERR_FAILED/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(appUrl);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.close();
    await good?.close();
    await closed?.close();
  });

  const mcpCard = () => page.locator('section.card', { has: page.getByRole('heading', { name: 'MCP servers' }) });

  const shoot = (name: string) => shootThemes(page, mcpCard(), name);

  it('names a server whose CORS keeps the page out, lists a good one’s tools, and trains against it', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('Example').selectOption('parts-desk');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByText(/\d+ train · \d+ validation · \d+ test/).waitFor();
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();

    await page.getByLabel('MCP server URL').fill(closed.url);
    await page.getByRole('button', { name: 'Test MCP server' }).click();
    const alert = page.getByText(/does not let this page in \(CORS\)/);
    await alert.waitFor();
    const advice = await mcpCard().innerText();
    for (const h of ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'exposedHeaders'])
      expect(advice).toContain(h);
    await shoot('data-mcp-cors');

    await page.getByLabel('MCP server URL').fill(good.url);
    await page.getByRole('button', { name: 'Test MCP server' }).click();
    await page.getByText(/refused the token \(401\)/).waitFor();
    await page.getByLabel('Token (optional)').fill(TOKEN);
    await page.getByRole('button', { name: 'Test MCP server' }).click();
    await page.getByText(/desk 1\.0\.0: 2 tools — connected/).waitFor();
    // The token crossed to the worker once: the field is empty, the page keeps no copy.
    expect(await page.getByLabel('Token (optional)').inputValue()).toBe('');
    expect(await page.getByLabel('Token (optional)').getAttribute('placeholder')).toBe('Token held — type to replace');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(TOKEN);
    // A tool the server does not declare read-only is not ticked: it would be called for real.
    expect(await page.getByRole('checkbox', { name: /lookup/ }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: /refund/ }).isChecked()).toBe(false);
    await shoot('data-mcp-tools');
    await page.getByRole('button', { name: 'Use this server (1 tool)' }).click();
    await page.getByText(good.url).waitFor();

    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { Epochs: '1', 'Batch size': '12' });
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, /Completed|Paused|Failed/);
    expect(await page.getByRole('status').first().innerText()).toMatch(/Completed/);
    const [run] = await readRuns(page);
    expect(run.state!.gate.bestSkill).toContain(NUMBER);
    // The agent's lookups went to the MCP server, with its token; the run keeps no token.
    expect(good.log.filter((e) => e.method === 'tools/call').length).toBeGreaterThan(10);
    expect(JSON.stringify(run)).not.toContain(TOKEN);
    expect(problems).toEqual([]);
  }, 180_000);
});
