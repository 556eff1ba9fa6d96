import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { startMcpServer, type McpTestServer } from '../support/mcp-server';
import { lookupTool, mcpDeskData } from '../support/mcp-tool-world';
import { trainOnce } from '../support/harness';
import { killAndResume, referenceRun, type World } from '../support/resume-harness';
import { DOUBLE, LOOKUP, UNITS_REFERENCE, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import { bundlePackage } from '../../src/core/skill/skill-package';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { connectMcpEnvironment, type McpEnvironment } from '../../src/mcp/mcp-environment';

let llm: LlmTestServer;
let mcp: McpTestServer;
let env: McpEnvironment;
beforeAll(async () => {
  llm = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
  mcp = await startMcpServer({ name: 'desk', tools: [lookupTool(40)] });
  env = await connectMcpEnvironment([{ config: { url: mcp.url }, name: 'desk', tokenHint: '' }], { timeoutMs: 5000, concurrency: 3 });
});
afterAll(async () => {
  await llm.close();
  await mcp.close();
});

const CONFIG: RunConfig = {
  ...DEFAULT_RUN_CONFIG,
  epochs: 1,
  batchSize: 8,
  minibatchSize: 4,
  mergeBatchSize: 3,
  slowUpdateSamples: 8,
  referencesOnDemand: true,
  maxTurns: 4,
  targetConcurrency: 3,
  optimizerConcurrency: 3,
  noiseProbe: 4,
};
const START = bundlePackage(`# Parts\n\n${LOOKUP}\n${DOUBLE}\n`, [{ path: 'references/units.md', text: UNITS_REFERENCE }]);

describe('an MCP server that fails mid-run (issue #31)', () => {
  it('pauses the run with the reason, scores nothing it could not answer, and resumes to the same best skill', async () => {
    const data = mcpDeskData(40);
    const reference = await trainOnce({ url: llm.url, data, initialSkill: START, config: CONFIG, environment: env });
    expect(reference.outcome.status).toBe('completed');
    const best = (await reference.store.loadState(reference.runId))!.gate.bestSkill;

    const store = new MemoryRunStore();
    mcp.set({ downAfterCalls: 25 });
    const paused = await trainOnce({ url: llm.url, data, initialSkill: START, config: CONFIG, environment: env, store });
    expect(paused.outcome).toMatchObject({ status: 'paused', reasonKind: 'environment' });
    expect(paused.outcome.reason).toMatch(
      /^MCP server desk failed: MCP server desk \(http:\/\/127\.0\.0\.1:\d+\/mcp\), .*could not be reached.*Nothing was scored; resume when it works\.$/,
    );
    // No row was scored from a call the server did not answer.
    const rows = await store.listRollouts(paused.runId);
    expect(rows.every((r) => r.status === 'ok')).toBe(true);

    mcp.set({ down: false, downAfterCalls: undefined });
    const resumed = await trainOnce({ url: llm.url, data, initialSkill: START, config: CONFIG, environment: env, store });
    expect(resumed.outcome.status).toBe('completed');
    expect((await store.loadState(resumed.runId))!.gate.bestSkill).toBe(best);
  }, 120_000);

  it('resumes a trajectory killed mid-way without calling the server again for what it already called', async () => {
    const data = mcpDeskData(40);
    const w: World = { server: () => llm, config: CONFIG, data, initialSkill: START, environment: env };
    mcp.log.length = 0;
    const ref = await referenceRun(w);
    const turns = ref.writeLog.map((e, i) => [e, i + 1] as const).filter(([e]) => e.startsWith('putArtifact:trajectory/'));
    // A trajectory's 2nd checkpoint is its first tool result; the starting skill loops ("look it up again").
    const key = turns[0][0];
    const second = turns.filter(([e]) => e === key)[1][1];
    const itemId = key.split('|')[1];
    const code = /part ([A-Z]{3}-\d+)/.exec(data.items.find((i) => i.id === itemId)!.question)![1];
    const callsFor = () => mcp.log.filter((e) => e.method === 'tools/call' && e.args?.code === code).length;
    const refCalls = callsFor();
    mcp.log.length = 0;
    await killAndResume(w, ref, second);
    // replayOnResume is false: the recorded result stands, and the server is not asked for it again
    // (other trajectories' calls under way at the kill may be made again: they were never recorded).
    expect(callsFor()).toBe(refCalls);
  }, 120_000);
});
