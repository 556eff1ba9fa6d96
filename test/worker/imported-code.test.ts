// What comes with an imported run stays inert until the person says so (issue #39), in the page's
// worker: a bundle's environment module runs nothing until the person read it and chose to run that
// very source (H2), and a bundle's MCP servers are replaced by the person's own settings at binding —
// their names, and only the tools they ticked; a destructive tool the file allowed is never offered (H3).
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { lookupTool } from '../support/mcp-tool-world';
import { openTab, type Tab } from '../support/api-harness';
import { LOOKUP, toolWorldItems, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { contentId } from '../../src/core/basics/hash';
import type { RunEnvironmentSpec } from '../../src/core/agent/environment-spec';

const TOKEN = 'mcp-desk-token-4242';
const MODULE = `export default { name: 'catalogue', tools: [{ name: 'lookup' }], call: () => 'Amber bolt' };\n`;
let llm: LlmTestServer;
let desk: McpTestServer;
/** Every tool name the target was offered. */
const offered = new Set<string>();

beforeAll(async () => {
  llm = await startLlmServer({
    agentPolicy: (req) => {
      for (const t of req.tools) offered.add(t.name);
      return toolWorldPolicy(req);
    },
    optimizerHook: toolWorldOptimizer,
  });
  const deleteAll = {
    name: 'delete_all',
    description: 'Delete every record.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { destructiveHint: true },
    handler: () => 'deleted',
  };
  desk = await startMcpServer({ name: 'desk', tools: [lookupTool(20), deleteAll], token: TOKEN });
});
afterAll(async () => {
  await Promise.all([llm.close(), desk.close()]);
});

const endpoints = () => ({ target: { baseURL: llm.url, model: 'sim-target' }, optimizer: { baseURL: llm.url, model: 'sim-optimizer' } });
const keys = () => ({ target: 'k', optimizer: 'k', hosts: { target: llm.url, optimizer: llm.url } });

/** A run someone else made with this environment, exported, and imported in a fresh tab. */
async function importedRun(environment: RunEnvironmentSpec): Promise<{ tab: Tab; runId: string }> {
  const author = await openTab();
  const items = toolWorldItems(20).map(({ tool_results: _r, ...rest }) => rest);
  const ds = await author.remote.importDataset(JSON.stringify(items), { name: 'Desk' });
  if (!ds.ok) throw new Error(ds.error.message);
  const created = await author.remote.createRun({
    datasetId: ds.dataset.id,
    config: { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 4, minibatchSize: 2, mergeBatchSize: 2, slowUpdateSamples: 2, maxTurns: 3, targetConcurrency: 3, optimizerConcurrency: 3 },
    environment,
    initialSkill: `# Parts\n\n${LOOKUP}\n`,
    endpoints: { target: { baseURL: 'http://127.0.0.1:1/v1', model: 't' }, optimizer: { baseURL: 'http://127.0.0.1:1/v1', model: 'o' } },
  });
  if (!created.ok) throw new Error(created.error.message);
  const exported = await author.remote.exportRun(created.runId);
  if (!exported.ok) throw new Error(exported.error.message);
  author.close();
  const tab = await openTab();
  const imported = await tab.remote.importRun(exported.file);
  if (!imported.ok) throw new Error(imported.error.message);
  return { tab, runId: imported.runId };
}

describe('code and tools that come with an imported run (issue #39)', () => {
  it('runs nothing of a bundle’s module until the person approves the very source they read', async () => {
    const hash = contentId(MODULE);
    const { tab, runId } = await importedRun({ module: { name: 'catalogue', fileName: 'catalogue.mjs', source: MODULE, hash } });
    const detail = await tab.remote.getRun(runId);
    expect(detail.ok && detail.detail.module).toEqual({ name: 'catalogue', fileName: 'catalogue.mjs', hash, bytes: MODULE.length, fromFile: true });
    expect(await tab.remote.bindRun(runId, endpoints(), {})).toMatchObject({ ok: true });
    await tab.remote.setKeys(keys(), false);
    const calls = llm.log.length;
    const refused = await tab.remote.startRun(runId);
    expect(refused).toMatchObject({ ok: true, status: 'paused', reasonKind: 'environment' });
    if (refused.ok) expect(refused.reason).toMatch(/catalogue\.mjs came with the run's file and has not been approved: read it on Runs and choose "Run this module" first/);
    expect(llm.log.length).toBe(calls); // nothing was asked of any model
    // The source the person reads is the run's; approving another hash changes nothing.
    expect(await tab.remote.getRunModule(runId)).toMatchObject({ ok: true, module: { source: MODULE, hash } });
    expect(await tab.remote.approveModule(runId, contentId('something else'))).toMatchObject({ ok: false, error: { kind: 'changed' } });
    expect(JSON.stringify(await tab.db.get('runs', runId))).toContain('"from":"bundle"');
    expect(await tab.remote.approveModule(runId, hash)).toEqual({ ok: true });
    const after = await tab.remote.getRun(runId);
    expect(after.ok && after.detail.module?.fromFile).toBe(false);
    // Approved, the module goes to the page's sandbox (Node has none, so it says so).
    const next = await tab.remote.startRun(runId);
    expect(next.ok && next.reason).toMatch(/environment modules run only in the page, which sandboxes them/);
    tab.close();
  }, 60_000);

  it('binds a bundle’s MCP servers to the person’s own settings: their tools only, never a destructive one they did not tick', async () => {
    // The file names the server "shop" and lists no tools: every tool, delete_all too.
    const { tab, runId } = await importedRun({ mcp: { servers: [{ url: desk.url, name: 'shop' }], toolConcurrency: 2, timeoutSeconds: 5 } });
    const detail = await tab.remote.getRun(runId);
    expect(detail.ok && detail.detail.mcpServers).toEqual([{ url: desk.url, name: 'shop' }]);
    // Without the person's own settings for that server, the run is not bound.
    const unbound = await tab.remote.bindRun(runId, endpoints(), {}, null);
    expect(unbound).toMatchObject({ ok: false, error: { kind: 'mcp_not_yours' } });
    if (!unbound.ok) expect(unbound.error.message).toContain(desk.url);
    const mine = { servers: [{ url: desk.url, name: 'desk', tools: ['lookup'] }], toolConcurrency: 2, timeoutSeconds: 5 };
    expect(await tab.remote.bindRun(runId, endpoints(), {}, mine)).toMatchObject({ ok: true });
    expect((await tab.db.get('runs', runId))!.environment!.mcp).toEqual(mine);
    await tab.remote.setKeys({ ...keys(), mcp: { [desk.url]: TOKEN } }, false);
    offered.clear();
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'completed' });
    expect(offered.has('lookup')).toBe(true);
    expect(offered.has('delete_all')).toBe(false);
    expect(desk.log.some((e) => e.tool === 'delete_all')).toBe(false);
    tab.close();
  }, 60_000);

  it('offers no tool of a server whose settings list none the person ticked', async () => {
    const tab = await openTab();
    const items = toolWorldItems(20).map(({ tool_results: _r, ...rest }) => rest);
    const ds = await tab.remote.importDataset(JSON.stringify(items), { name: 'Desk' });
    if (!ds.ok) throw new Error(ds.error.message);
    const created = await tab.remote.createRun({
      datasetId: ds.dataset.id,
      config: { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 4, minibatchSize: 2, maxTurns: 3 },
      environment: { mcp: { servers: [{ url: desk.url, name: 'desk' }], toolConcurrency: 2, timeoutSeconds: 5 } },
      initialSkill: `# Parts\n\n${LOOKUP}\n`,
      endpoints: endpoints(),
    });
    if (!created.ok) throw new Error(created.error.message);
    await tab.remote.setKeys({ ...keys(), mcp: { [desk.url]: TOKEN } }, false);
    const calls = desk.log.length;
    const paused = await tab.remote.startRun(created.runId);
    expect(paused).toMatchObject({ ok: true, status: 'paused', reasonKind: 'environment' });
    if (paused.ok) expect(paused.reason).toMatch(/MCP server desk has no list of the tools you allow/);
    expect(desk.log.length).toBe(calls);
    tab.close();
  }, 60_000);
});
