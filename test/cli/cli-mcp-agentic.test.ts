// The MCP world in the runner (issue #31): the agentic rule world's tools served by the SDK's own
// MCP server on 127.0.0.1, the dataset declaring no tools, the starting skill a package whose
// reference is read on demand. The runner trains it end to end; the kept skill is judged as
// bench:quality judges it (its trajectories replayed offline on the test items, without noise).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { agenticMcpTools, mcpAgenticDatasetText } from '../support/mcp-agentic-world';
import { AGENTIC_INITIAL_SKILL, START_SKILL_MD, START_UNITS_MD, UNITS_PATH } from '../support/agentic-world';
import { AGENTIC_NOISE, agenticDataset, agenticHeldOut } from '../support/bench-agentic';
import { runCliIn } from '../support/cli-here';

let llm: LlmTestServer;
let mcp: McpTestServer;
let dir: string;

beforeAll(async () => {
  llm = await startLlmServer({ world: 'agentic', targetNoise: AGENTIC_NOISE.agentic, noiseSeed: 1 });
  mcp = await startMcpServer({ name: 'desk', tools: agenticMcpTools() });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-mcp-agentic-'));
  writeFileSync(join(dir, 'desk.json'), mcpAgenticDatasetText());
  mkdirSync(join(dir, 'desk', 'references'), { recursive: true });
  writeFileSync(join(dir, 'desk', 'SKILL.md'), START_SKILL_MD);
  writeFileSync(join(dir, 'desk', UNITS_PATH), START_UNITS_MD);
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      data: 'desk.json',
      skill: 'desk',
      target: { baseURL: llm.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: llm.url, model: 'sim-optimizer', maxRetries: 2 },
      environment: { mcp: [{ url: mcp.url, name: 'desk' }], maxTurns: 8, referencesOnDemand: true },
      run: { epochs: 2, batchSize: 20, minibatchSize: 5, mergeBatchSize: 3, slowUpdateSamples: 10, targetConcurrency: 4, optimizerConcurrency: 4, seed: 1 },
    }),
  );
});
afterAll(async () => {
  await llm.close();
  await mcp.close();
});

describe('the MCP world in the runner (issue #31)', () => {
  it('trains the agentic world against a real MCP server to a skill that holds on the test items', async () => {
    const r = await runCliIn(dir, ['train', '--config', 'skillwright.json', '--out', 'out', '--json'], { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toMatchObject({ status: 'completed' });
    // Every tool the agent called was the server's: the dataset declares none.
    const calls = mcp.log.filter((e) => e.method === 'tools/call');
    expect(new Set(calls.map((e) => e.tool))).toEqual(new Set(['lookup', 'convert', 'search_orders', 'refund']));
    const bundle = JSON.parse(readFileSync(join(dir, 'out', 'run-bundle.json'), 'utf8')) as { run: { state: { gate: { bestSkill: string } } } };
    const best = bundle.run.state.gate.bestSkill;
    const data = agenticDataset();
    expect(agenticHeldOut(AGENTIC_INITIAL_SKILL, data).accuracy).toBe(0.125);
    expect(agenticHeldOut(best, data).accuracy).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
