import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import {
  DOUBLE,
  LOOKUP,
  NUMBER,
  UNITS,
  UNITS_REFERENCE,
  toolWorldFile,
  toolWorldOptimizer,
  toolWorldPolicy,
} from '../support/tool-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { bundlePackage, splitBundle } from '../../src/core/skill/skill-package';
import type { RunDataset } from '../../src/engine/types';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
});
afterAll(() => server.close());

function toolData(): RunDataset {
  const r = importDatasetText(toolWorldFile(60));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

const START = bundlePackage(`# Parts\n\nAnswer with the part's name or weight.\n\n${LOOKUP}\n${DOUBLE}\n`, [
  { path: 'references/units.md', text: UNITS_REFERENCE },
]);

describe('training an agent\'s skill on trajectories (issue #30)', () => {
  it('learns from what the trajectories show: the loop, the argument form, the reference to read', async () => {
    server.set({ keepPrompts: true });
    server.log.length = 0;
    const { outcome, store, runId } = await trainOnce({
      url: server.url,
      data: toolData(),
      initialSkill: START,
      config: { epochs: 2, batchSize: 12, minibatchSize: 4, referencesOnDemand: true, maxTurns: 4 },
    });
    expect(outcome.status).toBe('completed');
    const state = (await store.loadState(runId))!;
    const { main, files } = splitBundle(state.gate.bestSkill);
    expect(main).not.toContain(DOUBLE);
    expect(main).toContain(NUMBER);
    expect(main).toContain(UNITS);
    expect(files.map((f) => f.path)).toEqual(['references/units.md']);
    expect(state.gate.bestScore).toBe(1);
    expect(state.baselineScore).toBe(0);
    // The analysts read whole trajectories: calls with their arguments, results, references read.
    const reflect = server.log.filter((e) => e.stage === 'reflect_failure').map((e) => e.user ?? '');
    expect(reflect.some((u) => u.includes('[tool call turn 1] lookup({"code":"'))).toBe(true);
    expect(reflect.some((u) => u.includes('Failure reason: ran out of turns (4 turns; last: turn 4 called lookup('))).toBe(true);
    const success = server.log.filter((e) => e.stage === 'reflect_success').map((e) => e.user ?? '');
    expect(success.some((u) => /References read: references\/units\.md/.test(u))).toBe(true);
    const rows = await store.listRollouts(runId);
    expect(rows.filter((r) => r.trajectory).length).toBe(rows.length);
    server.set({ keepPrompts: false });
  });

  it('shows only final answers with reflectOnTrajectories off (the ablation)', async () => {
    server.set({ keepPrompts: true });
    server.log.length = 0;
    const { outcome } = await trainOnce({
      url: server.url,
      data: toolData(),
      initialSkill: START,
      config: { epochs: 1, batchSize: 12, minibatchSize: 4, referencesOnDemand: true, maxTurns: 4, reflectOnTrajectories: false },
    });
    expect(outcome.status).toBe('completed');
    const reflect = server.log.filter((e) => e.stage === 'reflect_failure').map((e) => e.user ?? '');
    expect(reflect.length).toBeGreaterThan(0);
    for (const u of reflect) {
      expect(u).not.toContain('[tool call');
      expect(u).not.toContain('ran out of turns');
      expect(u).toContain('[agent] ');
    }
    server.set({ keepPrompts: false });
  });
});

describe('what an agent costs (issue #30)', () => {
  it('the estimate counts a target call per turn (maxTurns until the baseline measures the mean)', async () => {
    const { estimateCost } = await import('../../src/engine/cost-estimate');
    const { rolloutTemplateOf } = await import('../../src/engine/context');
    const { loadPrompts } = await import('../support/prompts');
    const { SMALL_CONFIG } = await import('../support/harness');
    const data = toolData();
    const prompts = loadPrompts();
    const sizes = { train: data.splits.train.length, val: data.splits.val.length, test: data.splits.test.length };
    const args = { config: SMALL_CONFIG, items: data.items, splits: sizes, skill: START, template: rolloutTemplateOf(SMALL_CONFIG, prompts), prompts };
    const single = estimateCost(args);
    const bound = estimateCost({ ...args, agent: { turns: 8, measured: false } });
    const measured = estimateCost({ ...args, agent: { turns: 2.5, measured: true } });
    expect(bound.stages.rollout!.calls).toBe(single.stages.rollout!.calls * 8);
    expect(measured.stages.gate!.calls).toBe(Math.ceil(single.stages.gate!.calls * 2.5));
    expect(measured.stages.reflect!.calls).toBe(single.stages.reflect!.calls);
    expect(measured.stages.rollout!.promptTokens / measured.stages.rollout!.calls).toBeGreaterThan(
      single.stages.rollout!.promptTokens / single.stages.rollout!.calls,
    );
    expect(bound.assumptions.join(' ')).toContain('at most 8 turns');
    expect(measured.assumptions.join(' ')).toContain('2.5 turns on average (measured at the baseline)');
  });

  it('measures the mean turns at the baseline, and the meter bills every turn', async () => {
    server.log.length = 0;
    const { outcome, store, runId } = await trainOnce({
      url: server.url,
      data: toolData(),
      initialSkill: START.replace(DOUBLE, NUMBER),
      config: { epochs: 1, batchSize: 12, minibatchSize: 4, referencesOnDemand: true, evalTest: false },
    });
    expect(outcome.status).toBe('completed');
    const state = (await store.loadState(runId))!;
    const baseline = (await store.getRollouts(runId, 'baseline')).filter((r) => r.status === 'ok');
    expect(state.agentTurns).toBeCloseTo(baseline.reduce((a, r) => a + r.turns!, 0) / baseline.length, 10);
    expect(state.agentTurns!).toBeGreaterThan(1);
    const targetCalls = server.log.filter((e) => e.stage === 'target' && e.status === 200).length;
    const billed = Object.values(outcome.summary!.usage).reduce((a, u) => a + u.calls, 0);
    const optimizerCalls = server.log.filter((e) => e.stage !== 'target' && e.status === 200).length;
    expect(billed).toBe(targetCalls + optimizerCalls);
  });
});

describe('repairing an agent’s bundle (issue #30)', () => {
  it('shows the repairer both trajectories of a regressed item, so a slip reads apart from a bad rule', async () => {
    const { createStandaloneContext } = await import('../../src/engine/context');
    const { repairBundle } = await import('../../src/engine/step/credit-check');
    const { createLlmPort } = await import('../../src/llm/openai-client');
    const { testEndpoint } = await import('../support/endpoints');
    const { loadPrompts } = await import('../support/prompts');
    const { MemoryRunStore } = await import('../../src/storage/memory-store');
    const { DEFAULT_RUN_CONFIG } = await import('../../src/core/config/run-config');
    const data = toolData();
    const ctx = await createStandaloneContext({
      runId: 'repair',
      config: { ...DEFAULT_RUN_CONFIG },
      llm: createLlmPort({ target: testEndpoint(server.url, 'sim-target'), optimizer: testEndpoint(server.url, 'sim-optimizer') }),
      store: new MemoryRunStore(),
      prompts: loadPrompts(),
      items: data.items,
      datasetTools: data.tools,
    });
    const row = (result: string, answer: string, hard: number) => ({
      runId: 'repair', phase: 'x', order: 0, itemId: 't003', skillHash: 'h', cacheKey: `k${hard}`, status: 'ok' as const,
      response: answer, predicted: answer, hard, soft: hard, usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 },
      latencyMs: 0, cached: false, turns: 2, ...(hard ? {} : { failReason: "turn 2: EM=0: predicted 'unknown'" }),
      trajectory: [
        { kind: 'assistant' as const, turn: 1, content: '', toolCalls: [{ id: 'c', name: 'lookup', arguments: '{"code":"103"}' }] },
        { kind: 'tool' as const, turn: 1, callId: 'c', name: 'lookup', arguments: '{"code":"103"}', result },
        { kind: 'assistant' as const, turn: 2, content: `<answer>${answer}</answer>` },
      ],
    });
    server.set({ keepPrompts: true });
    server.log.length = 0;
    await repairBundle(ctx, {
      key: 'r1', current: START, candidate: START, edits: [{ op: 'append', content: NUMBER }],
      check: { delta: { n: 1, improved: [], regressed: ['t003'], before: { hard: 1, soft: 1 }, after: { hard: 0, soft: 0 } }, rows: [row('Dune washer', 'unknown', 0)], calls: 1, complete: true, improved: false, strict: false },
      currentRows: [row('Dune washer', 'Dune washer', 1)], maxAdded: 2, metaText: '',
    });
    const prompt = server.log.find((e) => e.stage === 'repair_edits')!.user!;
    expect(prompt).toContain('Trajectory with the current skill — passed:');
    expect(prompt).toContain("Trajectory with the candidate — turn 2: EM=0: predicted 'unknown':");
    expect(prompt).toContain('[tool result turn 1] Dune washer');
    server.set({ keepPrompts: false });
  });
});

describe('the activation track of an agent’s skill (issue #30)', () => {
  it('decides whether to load the skill in one call: no tools reach the trigger queries', async () => {
    const { createStandaloneContext } = await import('../../src/engine/context');
    const { activationContext } = await import('../../src/engine/activation');
    const { agentSetting } = await import('../../src/engine/target/tool-loop');
    const { createLlmPort } = await import('../../src/llm/openai-client');
    const { testEndpoint } = await import('../support/endpoints');
    const { loadPrompts } = await import('../support/prompts');
    const { MemoryRunStore } = await import('../../src/storage/memory-store');
    const { DEFAULT_RUN_CONFIG } = await import('../../src/core/config/run-config');
    const { triggerItems } = await import('../../src/core/dataset/trigger-queries');
    const data = toolData();
    const ctx = await createStandaloneContext({
      runId: 'act',
      config: { ...DEFAULT_RUN_CONFIG, referencesOnDemand: true },
      llm: createLlmPort({ target: testEndpoint(server.url, 'sim-target'), optimizer: testEndpoint(server.url, 'sim-optimizer') }),
      store: new MemoryRunStore(),
      prompts: loadPrompts(),
      items: data.items,
      datasetTools: data.tools,
    });
    expect(ctx.agent.active).toBe(true);
    const items = triggerItems([{ id: 'q', query: 'find part AMB-1', shouldTrigger: true }], 'parts');
    const tctx = activationContext(ctx, { items, splits: { train: ['trigger:q'], val: [], test: [] }, name: 'parts', description: 'd' });
    expect(tctx.agent.active).toBe(false);
    expect(agentSetting(tctx, START, items[0]).tools).toEqual([]);
  });
});
