import { describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { DOUBLE, LOOKUP, NUMBER, UNITS, UNITS_REFERENCE, toolWorldFile, toolWorldPolicy } from '../support/tool-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import { bundlePackage } from '../../src/core/skill/skill-package';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import type { EnvEpisode, ToolEnvironment } from '../../src/engine/environment';
import { EnvironmentError } from '../../src/engine/environment';
import type { RunDataset } from '../../src/engine/types';
import { afterAll, beforeAll } from 'vitest';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({ agentPolicy: toolWorldPolicy });
});
afterAll(() => server.close());

function toolData(n = 30): RunDataset {
  const r = importDatasetText(toolWorldFile(n));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

const SKILL = (...rules: string[]) => `# Parts\n\nAnswer with the part's name or weight.\n\n${rules.join('\n')}\n`;

async function evaluate(
  skill: string,
  o: { config?: Partial<RunConfig>; data?: RunDataset; concurrency?: number; environment?: ToolEnvironment; store?: MemoryRunStore } = {},
) {
  const config: RunConfig = { ...DEFAULT_RUN_CONFIG, targetConcurrency: o.concurrency ?? 4, ...o.config };
  const llm = createLlmPort(
    {
      target: testEndpoint(server.url, 'sim-target', { concurrency: config.targetConcurrency }),
      optimizer: testEndpoint(server.url, 'sim-optimizer'),
    },
    { backoffBaseMs: 5, maxBackoffMs: 50 },
  );
  const data = o.data ?? toolData();
  const out = await evaluateSkill(
    { skill, split: 'test', limit: 0, config, data },
    { llm, store: o.store ?? new MemoryRunStore(), prompts: loadPrompts(), environment: o.environment },
  );
  if (!out.ok) throw new Error(out.reason);
  return out;
}

describe('agentic rollouts (issue #30)', () => {
  it('answers tool calls from the dataset, turn by turn, and scores the final answer and the calls', async () => {
    server.log.length = 0;
    const full = await evaluate(SKILL(LOOKUP, NUMBER));
    const data = toolData();
    const isWeight = (id: string) => data.items.find((i) => i.id === id)!.question.includes('grams');
    // Names are right; weights are given in kg without the units rule (the catalogue's unit).
    expect(full.rows.filter((r) => !isWeight(r.itemId)).every((r) => r.hard === 1)).toBe(true);
    expect(full.rows.filter((r) => isWeight(r.itemId)).every((r) => r.hard === 0)).toBe(true);
    const row = full.rows.find((r) => r.itemId === 't003')!;
    expect(row.turns).toBe(2);
    expect(row.trajectory).toEqual([
      { kind: 'assistant', turn: 1, content: '', toolCalls: [{ id: 'call_1_1', name: 'lookup', arguments: '{"code":"103"}' }] },
      { kind: 'tool', turn: 1, callId: 'call_1_1', name: 'lookup', arguments: '{"code":"103"}', result: 'Dune washer; weight 4 kg' },
      { kind: 'assistant', turn: 2, content: 'The catalogue says so.\n<answer>Dune washer</answer>' },
    ]);
    expect(row.response).toContain('<answer>Dune washer</answer>');
    // Each turn is one target call: the count the meter and the estimate go by.
    expect(server.log.filter((e) => e.stage === 'target').length).toBe(full.rows.reduce((n, r) => n + (r.turns ?? 0), 0));
  });

  it('names the turn and the call that went wrong', async () => {
    const noRule = await evaluate(SKILL());
    const r0 = noRule.rows.find((r) => r.itemId === 't003')!;
    expect(r0.hard).toBe(0);
    expect(r0.failReason).toBe("turn 1: EM=0: predicted 'unknown' but expected ['Dune washer']; never called lookup with {\"code\":\"103\"}");
    const prefixed = await evaluate(SKILL(LOOKUP));
    const r1 = prefixed.rows.find((r) => r.itemId === 't003')!;
    expect(r1.trajectory?.[1]).toMatchObject({ kind: 'tool', result: 'no result for these arguments' });
    expect(r1.failReason).toContain('never called lookup with {"code":"103"} (turn 1 called lookup({"code":"DUN-103"}))');
    expect(r1.soft).toBe(0);
  });

  it('fails an agent that never stops with "ran out of turns" after maxTurns target calls', async () => {
    server.log.length = 0;
    const out = await evaluate(SKILL(LOOKUP, NUMBER, DOUBLE), { config: { maxTurns: 3 } });
    for (const r of out.rows) {
      expect(r.status).toBe('ok');
      expect(r.hard).toBe(0);
      expect(r.turns).toBe(3);
      expect(r.failReason).toMatch(/^ran out of turns \(3 turns; last: turn 3 called lookup\(\{"code":"\d+"\}\)\)$/);
    }
    expect(server.log.filter((e) => e.stage === 'target').length).toBe(out.rows.length * 3);
  });

  it('gives the same trajectories at any concurrency', async () => {
    const one = await evaluate(SKILL(LOOKUP, NUMBER), { concurrency: 1 });
    const eight = await evaluate(SKILL(LOOKUP, NUMBER), { concurrency: 8 });
    const strip = (rows: typeof one.rows) => rows.map((r) => [r.itemId, r.hard, r.soft, r.trajectory]);
    expect(strip(eight.rows)).toEqual(strip(one.rows));
  });

  it('reads references on demand: SKILL.md in the prompt, the reference through read_file', async () => {
    server.set({ keepPrompts: true });
    server.log.length = 0;
    const bundle = bundlePackage(SKILL(LOOKUP, NUMBER, UNITS), [{ path: 'references/units.md', text: UNITS_REFERENCE }]);
    const out = await evaluate(bundle, { config: { referencesOnDemand: true } });
    const weight = out.rows.find((r) => r.itemId === 't008')!; // "How many grams does part COB-108 weigh?"
    expect(weight.hard).toBe(1);
    expect(weight.trajectory?.[0]).toMatchObject({ toolCalls: [{ name: 'read_file', arguments: '{"path":"references/units.md"}' }] });
    expect(weight.trajectory?.[1]).toMatchObject({ kind: 'tool', name: 'read_file', result: UNITS_REFERENCE });
    const first = server.log.find((e) => e.stage === 'target')!;
    expect(first.system).not.toContain('grams = kg');
    expect(first.system).toContain('## Files of this skill');
    expect(first.system).toContain('- references/units.md');
    // Off: the reference is pasted into the prompt, and nothing is read.
    const inlined = await evaluate(bundle, { config: { referencesOnDemand: false } });
    const w2 = inlined.rows.find((r) => r.itemId === 't008')!;
    expect(w2.hard).toBe(1);
    expect(w2.trajectory?.some((e) => e.kind === 'tool' && e.name === 'read_file')).toBe(false);
    server.set({ keepPrompts: false });
  });

  it('returns a tool error to the model, and pauses on an environment that fails', async () => {
    const calls: string[] = [];
    const env = (failOn?: string): ToolEnvironment => ({
      label: 'the shop module',
      identity: 'shop-1',
      replayOnResume: true,
      tools: async () => [{ name: 'lookup', parameters: { type: 'object', properties: { code: { type: 'string' } } } }],
      open: async (item): Promise<EnvEpisode> => ({
        call: async (name, args) => {
          calls.push(`${item.id}:${name}:${JSON.stringify(args)}`);
          if (failOn && String(args.code) === failOn) throw new EnvironmentError('the module stopped answering');
          if (String(args.code) === '103') return { result: 'Error: the catalogue is locked', error: true };
          return { result: `Part ${String(args.code)}; weight 1 kg` };
        },
        close: async () => {},
      }),
    });
    const out = await evaluate(SKILL(LOOKUP, NUMBER), { environment: env() });
    const locked = out.rows.find((r) => r.itemId === 't003')!;
    expect(locked.trajectory?.[1]).toMatchObject({ kind: 'tool', result: 'Error: the catalogue is locked', error: true });
    expect(locked.status).toBe('ok');
    expect(calls.length).toBeGreaterThan(0);
    await expect(evaluate(SKILL(LOOKUP, NUMBER), { environment: env('108') })).rejects.toThrow(
      /the shop module failed: the module stopped answering/,
    );
  });
});

describe('what one turn may ask of its environment (issue #39 M4)', () => {
  it('runs at most 32 calls a turn, sends no argument over 64 KB, cuts a result to 100 KB, and checkpoints once a turn', async () => {
    const sent: Record<string, unknown>[] = [];
    const env: ToolEnvironment = {
      label: 'a big catalogue',
      identity: 'big-1',
      replayOnResume: true,
      tools: async () => [{ name: 'lookup', parameters: { type: 'object', properties: { code: { type: 'string' } } } }],
      open: async (): Promise<EnvEpisode> => ({
        call: async (_name, args) => {
          sent.push(args);
          return { result: 'r'.repeat(200_000) };
        },
        close: async () => {},
      }),
    };
    // One turn of 40 calls, the first with 70 KB of arguments; then an answer.
    const calls = [{ name: 'lookup', arguments: { code: 'x'.repeat(70_000) } }, ...Array.from({ length: 39 }, (_, i) => ({ name: 'lookup', arguments: { code: String(i) } }))];
    server.set({ agentPolicy: (req) => (req.messages.some((m) => m.role === 'tool') ? { content: '<answer>done</answer>' } : { toolCalls: calls }) });
    class CountingStore extends MemoryRunStore {
      checkpoints = 0;
      override async putArtifact(r: Parameters<MemoryRunStore['putArtifact']>[0]) {
        if (r.key.startsWith('trajectory/')) this.checkpoints++;
        return super.putArtifact(r);
      }
    }
    const store = new CountingStore();
    try {
      const out = await evaluate(SKILL(LOOKUP), { environment: env, store, data: toolData(5) });
      for (const row of out.rows) {
        const results = (row.trajectory ?? []).filter((e) => e.kind === 'tool');
        expect(results).toHaveLength(40);
        expect(results[0]).toMatchObject({ error: true, result: 'Error: the arguments are larger than 64 KB; this call was not run' });
        expect(results.slice(1, 32).every((r) => r.result.length < 103_000 && r.result.endsWith('…[cut, 200000 chars]'))).toBe(true);
        expect(results.slice(32).every((r) => r.error && r.result.startsWith('Error: too many tool calls in one turn (at most 32)'))).toBe(true);
        const turn = row.trajectory?.[0];
        expect(turn?.kind === 'assistant' && turn.toolCalls?.[0].arguments).toMatch(/^\{"cut":"arguments of 70011 characters/);
      }
      expect(sent).toHaveLength(31 * out.rows.length);
      expect(sent.every((a) => JSON.stringify(a).length < 100)).toBe(true);
      // A checkpoint for turn 1, one for its 40 answers, one for the answer: not one per result.
      expect(store.checkpoints).toBe(3 * out.rows.length);
    } finally {
      server.set({ agentPolicy: toolWorldPolicy });
    }
  });
});

describe('the judge of an agent (issue #30)', () => {
  it('grades the whole conversation, not the final answer alone', async () => {
    server.set({ keepPrompts: true });
    server.log.length = 0;
    const out = await evaluate(SKILL(LOOKUP, NUMBER), { config: { scorer: { kind: 'judge' } } });
    const judged = server.log.filter((e) => e.stage === 'judge').map((e) => e.user ?? '');
    expect(judged.length).toBe(out.rows.length);
    expect(judged.every((u) => u.includes('[tool call turn 1] lookup({"code":"'))).toBe(true);
    expect(judged.some((u) => u.includes('[tool result turn 1] '))).toBe(true);
    expect(out.rows.every((r) => r.judge)).toBe(true);
    server.set({ keepPrompts: false });
  });
});
