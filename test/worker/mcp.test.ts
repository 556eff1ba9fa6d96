// MCP servers in the page's worker (issue #31): Test MCP server lists the tools (and what the
// server says of their side effects) with the token the vault holds for the server's URL, or
// names the problem; a run whose settings name servers trains through them, and its token is
// never written to the store.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { lookupTool } from '../support/mcp-tool-world';
import { openTab } from '../support/api-harness';
import { LOOKUP, toolWorldItems, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { RUN_DATA_STORES } from '../../src/storage/schema';

const TOKEN = 'mcp-page-token-9911';
let llm: LlmTestServer;
let mcp: McpTestServer;
beforeAll(async () => {
  llm = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
  const refund = { name: 'refund', inputSchema: { type: 'object', properties: {} }, handler: () => 'refunded' };
  mcp = await startMcpServer({ name: 'desk', tools: [lookupTool(40), refund], token: TOKEN });
});
afterAll(async () => {
  await llm.close();
  await mcp.close();
});

describe('MCP servers in the page (issue #31)', () => {
  it('tests a server with the token held for its URL, or names what is wrong', async () => {
    const tab = await openTab();
    const refused = await tab.remote.testMcpServer({ url: mcp.url, name: 'desk' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/refused the request \(HTTP 401\).*enter desk's token and test again/);
    // A token held for another URL is not sent.
    await tab.remote.setKeys({ mcp: { 'http://127.0.0.1:1/mcp': TOKEN } }, false);
    expect(await tab.remote.testMcpServer({ url: mcp.url, name: 'desk' })).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    await tab.remote.setKeys({ mcp: { [mcp.url]: TOKEN } }, false);
    expect(await tab.remote.testMcpServer({ url: mcp.url, name: 'desk' })).toEqual({
      ok: true,
      server: { name: 'desk', version: '1.0.0' },
      tools: [
        { name: 'lookup', description: 'The catalogue entry of a part.', readOnly: true, sideEffects: false },
        { name: 'refund', readOnly: false, sideEffects: true },
      ],
      resources: 0,
    });
    const gone = await tab.remote.testMcpServer({ url: 'http://127.0.0.1:1/mcp' });
    expect(gone).toMatchObject({ ok: false, error: { kind: 'local_unreachable' } });
    const bad = await tab.remote.testMcpServer({ url: mcp.url, headers: { Authorization: 'x' } });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    tab.close();
  });

  it('trains a run whose settings name the server, with the vault’s token, and stores no token', async () => {
    const tab = await openTab();
    const items = toolWorldItems(40).map(({ tool_results: _r, ...rest }) => rest);
    const ds = await tab.remote.importDataset(JSON.stringify(items), { name: 'Desk' });
    if (!ds.ok) throw new Error(ds.error.message);
    const mcpSettings = { servers: [{ url: mcp.url, name: 'desk', tools: ['lookup'] }], toolConcurrency: 2, timeoutSeconds: 5 };
    const created = await tab.remote.createRun({
      datasetId: ds.dataset.id,
      config: { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 8, minibatchSize: 4, mergeBatchSize: 3, slowUpdateSamples: 8, maxTurns: 4, targetConcurrency: 3, optimizerConcurrency: 3 },
      environment: { mcp: mcpSettings },
      initialSkill: `# Parts\n\n${LOOKUP}\n`,
      endpoints: { target: { baseURL: llm.url, model: 'sim-target' }, optimizer: { baseURL: llm.url, model: 'sim-optimizer' } },
    });
    if (!created.ok) throw new Error(created.error.message);
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: llm.url, optimizer: llm.url } }, true);
    // Without its token the run pauses, naming where to give it; nothing was run.
    const paused = await tab.remote.startRun(created.runId);
    expect(paused).toMatchObject({ ok: true, status: 'paused', reasonKind: 'environment' });
    await tab.remote.setKeys({ mcp: { [mcp.url]: TOKEN } }, true);
    mcp.log.length = 0;
    expect(await tab.remote.startRun(created.runId)).toMatchObject({ ok: true, status: 'completed' });
    expect(mcp.log.filter((e) => e.method === 'tools/call').length).toBeGreaterThan(20);
    expect(mcp.log.some((e) => e.tool === 'refund')).toBe(false);
    // Remembered keys live in settings only; the run's rows never hold a token.
    for (const store of ['runs', 'datasets', ...RUN_DATA_STORES] as const) expect(JSON.stringify(await tab.db.getAll(store))).not.toContain(TOKEN);
    tab.close();
  }, 60_000);

  it('pauses a run whose tool does not answer within the run’s own time limit, scoring nothing from it', async () => {
    const tab = await openTab();
    const hang = lookupTool(40);
    const slow = await startMcpServer({ name: 'slow', tools: [{ ...hang, handler: () => new Promise<string>(() => {}) }] });
    const items = toolWorldItems(40).map(({ tool_results: _r, ...rest }) => rest);
    const ds = await tab.remote.importDataset(JSON.stringify(items), { name: 'Desk' });
    if (!ds.ok) throw new Error(ds.error.message);
    const created = await tab.remote.createRun({
      datasetId: ds.dataset.id,
      config: { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 8, minibatchSize: 4, maxTurns: 4, targetConcurrency: 3, optimizerConcurrency: 3 },
      environment: { mcp: { servers: [{ url: slow.url, name: 'slow', tools: ['lookup'] }], toolConcurrency: 2, timeoutSeconds: 3 } },
      initialSkill: `# Parts\n\n${LOOKUP}\n`,
      endpoints: { target: { baseURL: llm.url, model: 'sim-target' }, optimizer: { baseURL: llm.url, model: 'sim-optimizer' } },
    });
    if (!created.ok) throw new Error(created.error.message);
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: llm.url, optimizer: llm.url } }, false);
    const paused = await tab.remote.startRun(created.runId);
    expect(paused).toMatchObject({ ok: true, status: 'paused', reasonKind: 'environment' });
    if (paused.ok) expect(paused.reason).toMatch(/MCP server slow .*its call to lookup: did not answer within 3 s/);
    const rows = (await tab.db.getAll('rollouts')).filter((r) => r.runId === created.runId);
    expect(rows.every((r) => r.status === 'ok')).toBe(true);
    await slow.close();
    tab.close();
  }, 60_000);
});
