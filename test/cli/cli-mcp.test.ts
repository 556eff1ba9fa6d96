// The runner with MCP servers (issue #31): the config's environment.mcp, the token from
// SKILLWRIGHT_MCP_<NAME>_TOKEN (never written anywhere), a refused token pausing the run with
// the variable to set, and the same command resuming it once the token is there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { lookupTool } from '../support/mcp-tool-world';
import { LOOKUP, NUMBER, toolWorldItems, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { runCliIn } from '../support/cli-here';

const KEY = 'sk-cli-secret-key-123';
const TOKEN = 'mcp-desk-token-456';
let llm: LlmTestServer;
let mcp: McpTestServer;
let dir: string;

beforeAll(async () => {
  llm = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
  mcp = await startMcpServer({ name: 'desk', tools: [lookupTool(40)], token: TOKEN });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-mcp-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(toolWorldItems(40).map(({ tool_results: _r, ...rest }) => rest)));
  writeFileSync(join(dir, 'skill.md'), `# Parts\n\n${LOOKUP}\n`);
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: llm.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: llm.url, model: 'sim-optimizer', maxRetries: 2 },
      environment: { mcp: [{ url: mcp.url, name: 'desk', tools: ['lookup'] }], toolConcurrency: 2, timeoutSeconds: 5, maxTurns: 4 },
      run: { epochs: 1, batchSize: 8, minibatchSize: 4, mergeBatchSize: 3, slowUpdateSamples: 8, targetConcurrency: 3, optimizerConcurrency: 3 },
    }),
  );
});
afterAll(async () => {
  await llm.close();
  await mcp.close();
});

const cli = (args: string[], env: Record<string, string>) => runCliIn(dir, args, { SKILLWRIGHT_TARGET_API_KEY: KEY, ...env });

describe('the runner with MCP servers (issue #31)', () => {
  it('pauses naming the token variable when the server refuses, resumes once it is set, and never writes the token', async () => {
    const refused = await cli(['train', '--config', 'skillwright.json', '--out', 'out'], {});
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toMatch(/MCP server desk .*refused the request \(HTTP 401\).*set SKILLWRIGHT_MCP_DESK_TOKEN to its token/);
    expect(mcp.log.some((e) => e.method === 'tools/call')).toBe(false);

    const resumed = await cli(['resume', '--out', 'out', '--json'], { SKILLWRIGHT_MCP_DESK_TOKEN: TOKEN });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout.trim())).toMatchObject({ status: 'completed' });
    expect(readFileSync(join(dir, 'out', 'best-skill.md'), 'utf8')).toContain(NUMBER);
    expect(mcp.log.filter((e) => e.method === 'tools/call').length).toBeGreaterThan(20);
    // The servers are stored with the run (it resumes on them); their token is nowhere.
    const bundle = readFileSync(join(dir, 'out', 'run-bundle.json'), 'utf8');
    expect(bundle).toContain(mcp.url);
    for (const f of readdirSync(join(dir, 'out')).filter((f) => statSync(join(dir, 'out', f)).isFile()))
      expect(readFileSync(join(dir, 'out', f), 'utf8'), f).not.toContain(TOKEN);
    expect(resumed.stdout + resumed.stderr).not.toContain(TOKEN);
  }, 60_000);

  it('names a bad MCP setting with exit code 2', async () => {
    const bad = (environment: unknown) => {
      const c = JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8')) as Record<string, unknown>;
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...c, environment }));
      return cli(['train', '--config', 'bad.json', '--out', 'bad', '--dry-run'], {});
    };
    const secret = await bad({ mcp: [{ url: mcp.url, name: 'desk', headers: { Authorization: `Bearer ${TOKEN}` } }] });
    expect(secret.code).toBe(2);
    expect(secret.stderr).toContain('the header "Authorization" holds a secret and would be stored with the run; set SKILLWRIGHT_MCP_DESK_TOKEN');
    expect(secret.stderr).not.toContain(TOKEN);
    const both = await bad({ module: 'env.mjs', mcp: [{ url: mcp.url }] });
    expect(both.stderr).toContain('names both a module and MCP servers');
    const noUrl = await bad({ mcp: [{ name: 'x' }], toolConcurrency: 0 });
    expect(noUrl.stderr).toContain('"environment.mcp": server 1: "url" must be an http(s) address; "toolConcurrency" must be a whole number from 1 to 64.');
  });
});
