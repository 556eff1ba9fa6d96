import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer, type McpTestTool } from '../support/mcp-server';
import { lookupTool, mcpDeskData } from '../support/mcp-tool-world';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { LOOKUP, NUMBER, toolWorldFile, toolWorldPolicy } from '../support/tool-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { tokenVariable, type McpServerConfig } from '../../src/core/agent/mcp-servers';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import type { ToolEnvironment } from '../../src/engine/environment';
import type { RunDataset } from '../../src/engine/types';
import { connectMcpEnvironment } from '../../src/mcp/mcp-environment';
import type { ServerLink } from '../../src/mcp/mcp-session';

let llm: LlmTestServer;
const servers: McpTestServer[] = [];
beforeAll(async () => {
  llm = await startLlmServer({ agentPolicy: toolWorldPolicy });
});
afterAll(() => llm.close());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function mcp(tools: McpTestTool[] = [lookupTool()], o: Parameters<typeof startMcpServer>[0] extends infer P ? Partial<P> : never = {}) {
  const s = await startMcpServer({ tools, ...o });
  servers.push(s);
  return s;
}

const link = (s: McpTestServer, c: Partial<McpServerConfig> & { token?: string } = {}): ServerLink => {
  const { token, ...config } = c;
  const name = config.name ?? s.options.name;
  return { config: { url: s.url, ...config }, name, ...(token ? { token } : {}), tokenHint: `set ${tokenVariable(name)}` };
};

const SKILL = `# Parts\n\nAnswer with the part's name or weight.\n\n${LOOKUP}\n${NUMBER}\n`;

async function evaluate(environment: ToolEnvironment | undefined, data: RunDataset = mcpDeskData(), concurrency = 4) {
  const config = { ...DEFAULT_RUN_CONFIG, targetConcurrency: concurrency };
  const port = createLlmPort(
    { target: testEndpoint(llm.url, 'sim-target', { concurrency }), optimizer: testEndpoint(llm.url, 'sim-optimizer') },
    { backoffBaseMs: 5 },
  );
  return evaluateSkill(
    { skill: SKILL, split: 'test', limit: 0, config, data },
    { llm: port, store: new MemoryRunStore(), prompts: loadPrompts(), environment },
  );
}

const declared = (): RunDataset => {
  const r = importDatasetText(toolWorldFile(30));
  if (!r.ok) throw new Error('tool world invalid');
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
};

describe('MCP servers as an environment (issue #31)', () => {
  it('offers the tools the server lists and answers each call through tools/call, as declared tools would', async () => {
    const server = await mcp();
    const env = await connectMcpEnvironment([link(server)], { timeoutMs: 5000, concurrency: 2 });
    expect(await env.tools()).toEqual([
      {
        name: 'lookup',
        description: 'The catalogue entry of a part.',
        parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
      },
    ]);
    expect(env.replayOnResume).toBe(false);
    server.log.length = 0;
    const out = await evaluate(env);
    if (!out.ok) throw new Error(out.reason);
    const same = await evaluate(undefined, declared());
    if (!same.ok) throw new Error(same.reason);
    const strip = (rows: typeof out.rows) => rows.map((r) => [r.itemId, r.hard, r.trajectory]);
    expect(strip(out.rows)).toEqual(strip(same.rows));
    // Every call went to the server, each trajectory in its own session, and every session was ended.
    const calls = server.log.filter((e) => e.method === 'tools/call');
    expect(calls.length).toBe(out.rows.length);
    expect(new Set(calls.map((c) => c.session)).size).toBe(calls.length);
    expect(server.openSessions()).toBe(0);
  });

  it('gives the tool’s own errors, JSON-RPC errors and structured content to the agent as tool results', async () => {
    const server = await mcp([
      {
        ...lookupTool(),
        handler: (args) => {
          if (args.code === '103') return { content: [{ type: 'text', text: 'the catalogue is locked' }], isError: true };
          if (args.code === '108') throw new Error('part 108 is under audit');
          return { content: [], structuredContent: { entry: `Part ${String(args.code)}; weight 2 kg` } };
        },
      },
    ]);
    const env = await connectMcpEnvironment([link(server)], { timeoutMs: 5000, concurrency: 2 });
    const out = await evaluate(env);
    if (!out.ok) throw new Error(out.reason);
    const result = (id: string) => out.rows.find((r) => r.itemId === id)!.trajectory!.find((e) => e.kind === 'tool');
    expect(result('t003')).toMatchObject({ result: 'the catalogue is locked', error: true });
    expect(result('t008')).toMatchObject({ result: 'Error: part 108 is under audit', error: true });
    expect(result('t004')).toMatchObject({ result: '{"entry":"Part 104; weight 2 kg"}' });
    expect(result('t004')).not.toHaveProperty('error');
    // The agent's problem, not the run's: every row is scored.
    expect(out.rows.every((r) => r.status === 'ok')).toBe(true);
  });

  it('names a server that refuses the token (401), speaks another protocol version, or is not there', async () => {
    const locked = await mcp([lookupTool()], { token: 's3cret' });
    await expect(connectMcpEnvironment([link(locked, { name: 'shop' })], { timeoutMs: 5000, concurrency: 1 })).rejects.toThrow(
      /MCP server shop \(http:\/\/127\.0\.0\.1:\d+\/mcp\), connecting: refused the request \(HTTP 401\).*set SKILLWRIGHT_MCP_SHOP_TOKEN/,
    );
    const wrong = connectMcpEnvironment([link(locked, { name: 'shop', token: 'nope' })], { timeoutMs: 5000, concurrency: 1 });
    await expect(wrong).rejects.toMatchObject({ problem: { kind: 'unauthorized' } });
    const ok = await connectMcpEnvironment([link(locked, { name: 'shop', token: 's3cret' })], { timeoutMs: 5000, concurrency: 1 });
    expect((await ok.tools()).map((t) => t.name)).toEqual(['lookup']);

    const old = await mcp([lookupTool()], { protocolVersion: '1999-01-01' });
    await expect(connectMcpEnvironment([link(old)], { timeoutMs: 5000, concurrency: 1 })).rejects.toMatchObject({
      problem: { kind: 'protocol', message: expect.stringMatching(/1999-01-01.*Skillwright speaks 2025-11-25/) },
    });

    const gone = await mcp();
    const url = gone.url;
    await gone.close();
    servers.splice(servers.indexOf(gone), 1);
    await expect(
      connectMcpEnvironment([{ config: { url }, name: 'gone', tokenHint: '' }], { timeoutMs: 5000, concurrency: 1 }),
    ).rejects.toMatchObject({ problem: { kind: 'unreachable' }, message: expect.stringMatching(/could not be reached/) });
  });

  it('sends the token in the header a server takes it in, as it is (tokenHeader, issue #39 M6)', async () => {
    const gitlab = await mcp([lookupTool()], { token: 'glpat-1', tokenHeader: 'Private-Token' });
    await expect(connectMcpEnvironment([link(gitlab, { name: 'gl', token: 'glpat-1' })], { timeoutMs: 5000, concurrency: 1 })).rejects.toMatchObject({
      problem: { kind: 'unauthorized' },
    });
    const ok = await connectMcpEnvironment([link(gitlab, { name: 'gl', token: 'glpat-1', tokenHeader: 'Private-Token' })], { timeoutMs: 5000, concurrency: 1 });
    expect((await ok.tools()).map((t) => t.name)).toEqual(['lookup']);
    ok.dispose?.();
  });

  it('never repeats the token a server echoes: not in a failure, not in a tool result (issue #39 L1)', async () => {
    const TOKEN = 'mcp-tok-SECRET-9';
    const echo = http.createServer((req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`server error, your header was ${req.headers.authorization ?? ''}`);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/mcp`;
      const failed = connectMcpEnvironment([{ config: { url }, name: 'desk', token: TOKEN, tokenHint: '' }], { timeoutMs: 5000, concurrency: 1 });
      await expect(failed).rejects.toThrow(/answered HTTP 500: .*your header was Bearer \[redacted\]/);
      await expect(failed).rejects.not.toThrow(new RegExp(TOKEN));
    } finally {
      await new Promise((r) => echo.close(r));
    }
    const tattle = await mcp([{ name: 'whoami', inputSchema: { type: 'object' }, handler: () => `you sent ${TOKEN}` }], { token: TOKEN });
    const env = await connectMcpEnvironment([link(tattle, { name: 'desk', token: TOKEN })], { timeoutMs: 5000, concurrency: 1 });
    const episode = await env.open({ id: 'a', question: 'q', answers: [], fields: {} });
    expect((await episode.call('whoami', {})).result).toBe('you sent [redacted]');
    await episode.close();
  });

  it('pauses, never scores, when a tool call does not answer within the time limit', async () => {
    const server = await mcp([{ ...lookupTool(), handler: (args) => (args.code === '108' ? new Promise(() => {}) : 'Part; weight 1 kg') }]);
    // The limit leaves a loaded machine time to connect: only the call that never answers reaches it.
    const env = await connectMcpEnvironment([link(server, { name: 'slow' })], { timeoutMs: 3000, concurrency: 4 });
    const out = await evaluate(env);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.kind).toBe('environment');
    expect(out.reason).toMatch(/MCP server slow failed: MCP server slow \(.*\), its call to lookup: did not answer within 3 s/);
  });

  it('prefixes colliding tool names with their server, offers only the allowed tools, and refuses an unknown one', async () => {
    const search: McpTestTool = { name: 'search', inputSchema: { type: 'object', properties: {} }, handler: () => 'nothing' };
    const refund: McpTestTool = { name: 'refund', inputSchema: { type: 'object', properties: {} }, annotations: { destructiveHint: true }, handler: () => 'refunded' };
    const a = await mcp([lookupTool(), search, refund], { name: 'a' });
    const b = await mcp([lookupTool()], { name: 'b' });
    const env = await connectMcpEnvironment([link(a, { tools: ['lookup', 'search'] }), link(b)], { timeoutMs: 5000, concurrency: 1 });
    expect((await env.tools()).map((t) => t.name)).toEqual(['a__lookup', 'search', 'b__lookup']);
    expect(env.offered.map((t) => [t.spec.name, t.server, t.remote])).toEqual([
      ['a__lookup', 'a', 'lookup'],
      ['search', 'a', 'search'],
      ['b__lookup', 'b', 'lookup'],
    ]);
    const episode = await env.open(mcpDeskData().items[0]);
    expect(await episode.call('b__lookup', { code: '104' })).toEqual({ result: 'Ember spring; weight 5 kg' });
    expect(await episode.call('refund', {})).toEqual({ result: 'Error: unknown tool refund', error: true });
    await episode.close();
    expect(b.log.filter((e) => e.method === 'tools/call').map((e) => e.tool)).toEqual(['lookup']);
    expect(a.log.some((e) => e.tool === 'refund')).toBe(false);
    await expect(connectMcpEnvironment([link(a, { tools: ['refnd'] })], { timeoutMs: 5000, concurrency: 1 })).rejects.toThrow(
      /a lists no tool "refnd"/,
    );
  });

  it('offers the server’s resources as read_resource', async () => {
    const units = '# Units\n\nWeights in the catalogue are in kg: grams = kg × 1000.\n';
    const server = await mcp([lookupTool()], { resources: [{ uri: 'docs://units', name: 'units', description: 'Weight units', text: units }] });
    const env = await connectMcpEnvironment([link(server)], { timeoutMs: 5000, concurrency: 1 });
    const tool = (await env.tools()).find((t) => t.name === 'read_resource')!;
    expect(tool.description).toContain('- docs://units — units: Weight units');
    const episode = await env.open(mcpDeskData().items[0]);
    expect(await episode.call('read_resource', { uri: 'docs://units' })).toEqual({ result: units });
    expect(await episode.call('read_resource', { uri: 'docs://nope' })).toMatchObject({ error: true });
    await episode.close();
    expect(server.openSessions()).toBe(0);
  });
});
