// The person's MCP tokens go only where the person's own config says (issue #39 H3, M1), with the
// runner as a process: a bundle's run continues on the config's servers — their names pick the
// tokens, their `tools` lists what the agent is offered — and `train` refuses to continue a run in
// its --out folder that calls servers the config does not name, sending them nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { lookupTool } from '../support/mcp-tool-world';
import { LOOKUP, toolWorldItems, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { runCliIn } from '../support/cli-here';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const DESK_TOKEN = 'desk-token-AAAA';
const SHOP_TOKEN = 'shop-token-BBBB';
let llm: LlmTestServer;
let desk: McpTestServer;
let shop: McpTestServer;
let dir: string;
/** Every tool name the target was offered. */
const offered = new Set<string>();

const config = (servers: unknown[]) => ({
  data: 'data.json',
  skill: 'skill.md',
  target: { baseURL: llm.url, model: 'sim-target', maxRetries: 0 },
  optimizer: { baseURL: llm.url, model: 'sim-optimizer', maxRetries: 0 },
  prices: { target: { input: 1, output: 4 }, optimizer: { input: 1, output: 4 } },
  environment: { mcp: servers, timeoutSeconds: 5, maxTurns: 3 },
  run: { epochs: 1, batchSize: 4, minibatchSize: 2, mergeBatchSize: 2, slowUpdateSamples: 2, targetConcurrency: 3, optimizerConcurrency: 3 },
});

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
  const price = { name: 'price', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true }, handler: () => '3 EUR' };
  desk = await startMcpServer({ name: 'desk', tools: [lookupTool(20), deleteAll], token: DESK_TOKEN });
  shop = await startMcpServer({ name: 'shop', tools: [price], token: SHOP_TOKEN });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-mcp-guards-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(toolWorldItems(10).map(({ tool_results: _r, ...rest }) => rest)));
  writeFileSync(join(dir, 'skill.md'), `# Parts\n\n${LOOKUP}\n`);
  // The person's own config: desk may only look things up; shop only price.
  writeFileSync(join(dir, 'mine.json'), JSON.stringify(config([{ url: desk.url, name: 'desk', tools: ['lookup'] }, { url: shop.url, name: 'shop', tools: ['price'] }])));
});
afterAll(async () => {
  await Promise.all([llm.close(), desk.close(), shop.close()]);
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', SKILLWRIGHT_TARGET_API_KEY: 'sk-target', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
const TOKENS = { SKILLWRIGHT_MCP_DESK_TOKEN: DESK_TOKEN, SKILLWRIGHT_MCP_SHOP_TOKEN: SHOP_TOKEN };
const CAP = ['--max-usd', '0.000001'];

describe('MCP tokens and tools follow the person’s config (issue #39)', () => {
  it('H3: a bundle that swaps the servers’ names and drops a tools list continues on the config’s servers', async () => {
    const made = await cli(['train', '--config', 'mine.json', '--out', 'made', ...CAP], TOKENS);
    expect(made.code, made.stderr).toBe(3); // paused by the cap: the bundle has the whole run left
    const bundle = JSON.parse(readFileSync(join(dir, 'made', 'run-bundle.json'), 'utf8')) as { run: { environment: { mcp: { servers: unknown[] } } } };
    bundle.run.environment.mcp.servers = [{ url: desk.url, name: 'shop' }, { url: shop.url, name: 'desk', tools: ['price'] }];
    writeFileSync(join(dir, 'swapped.json'), JSON.stringify(bundle));
    const [deskSeen, shopSeen] = [desk.authSeen.length, shop.authSeen.length];
    offered.clear();
    const r = await cli(['resume', '--bundle', 'swapped.json', '--config', 'mine.json', '--out', 'taken', '--json'], TOKENS);
    expect(r.stderr).not.toMatch(/HTTP 401/);
    // The bundle's own cap ($0.000001) is the sender's: the run goes on under the person's (M5).
    expect(r.stderr).toContain('This run goes on under your budget cap (no cap: --max-usd, or "run.budget" in your config), not the bundle\'s ($0.000001).');
    expect(JSON.parse(r.stdout.trim())).toMatchObject({ status: 'completed' });
    // Each server got its own token only, and the agent was never offered a tool the config left out.
    expect(new Set(desk.authSeen.slice(deskSeen))).toEqual(new Set([`Bearer ${DESK_TOKEN}`]));
    expect(new Set(shop.authSeen.slice(shopSeen))).toEqual(new Set([`Bearer ${SHOP_TOKEN}`]));
    expect(offered.has('lookup')).toBe(true);
    expect(offered.has('delete_all')).toBe(false);
    expect(desk.log.some((e) => e.tool === 'delete_all')).toBe(false);
  }, 120_000); // two runner processes and a whole run: a minute on a busy machine

  it('M1: train refuses to continue a run in --out that calls a server the config does not name, and sends it nothing', async () => {
    // Someone else's run in the folder (a restored cache): "desk" is their server. (In this process: no probe needs a spawn.)
    writeFileSync(join(dir, 'theirs.json'), JSON.stringify(config([{ url: shop.url, name: 'desk' }])));
    const here = (args: string[], env: Record<string, string> = {}) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: 'sk-target', ...env });
    expect((await here(['train', '--config', 'theirs.json', '--out', 'cache', ...CAP])).code).toBe(3);
    const seen = shop.authSeen.length;
    const r = await here(['train', '--config', 'mine.json', '--out', 'cache'], TOKENS);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`which calls other MCP servers than your config names: ${shop.url} (its name, tools or headers differ); ${desk.url} (not in the run)`);
    expect(shop.authSeen.slice(seen)).toEqual([]);
  }, 120_000);
});
