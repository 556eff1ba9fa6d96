import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { conversationPolicy } from '../support/conversation-agent';
import { ASK, SOLVED_SKILL, START_SKILL, conversationDatasetText, makeConversationItems } from '../support/conversation-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import type { RunDataset } from '../../src/engine/types';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({ agentPolicy: conversationPolicy() });
});
afterAll(() => server.close());

function data(text = conversationDatasetText()): RunDataset {
  const r = importDatasetText(text);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

async function evaluate(skill: string, o: { data?: RunDataset; config?: Partial<RunConfig>; concurrency?: number } = {}) {
  const config: RunConfig = { ...DEFAULT_RUN_CONFIG, targetConcurrency: o.concurrency ?? 4, optimizerConcurrency: o.concurrency ?? 4, ...o.config };
  const llm = createLlmPort(
    {
      target: testEndpoint(server.url, 'sim-target', { concurrency: config.targetConcurrency }),
      optimizer: testEndpoint(server.url, 'sim-optimizer', { concurrency: config.optimizerConcurrency }),
    },
    { backoffBaseMs: 5 },
  );
  const out = await evaluateSkill(
    { skill, split: 'test', limit: 0, config, data: o.data ?? data() },
    { llm, store: new MemoryRunStore(), prompts: loadPrompts(), environment: undefined },
  );
  if (!out.ok) throw new Error(out.reason);
  return out;
}

const simulatorCalls = () => server.log.filter((e) => e.stage === 'user_simulator' && e.status === 200).length;

describe('simulated users (issue #31)', () => {
  it('plays the user from its goal until the goal is met: a fact when asked, each reply a turn of the trajectory', async () => {
    server.log.length = 0;
    const out = await evaluate(SOLVED_SKILL);
    expect(out.rows.every((r) => r.status === 'ok' && r.hard === 1)).toBe(true);
    const item = makeConversationItems().find((i) => i.kind === 'address' && i.split === 'test')!;
    const row = out.rows.find((r) => r.itemId === item.id)!;
    const customer = /full name is (.+?)\./.exec(item.user_goal)![1];
    const address = /new address is (.+)\.$/.exec(item.user_goal)![1];
    expect(row.trajectory!.map((e) => (e.kind === 'user' ? ['user', e.message, e.content, e.end] : e.kind === 'assistant' ? ['agent', e.content] : ['tool', e.name]))).toEqual([
      ['agent', ASK.name],
      ['user', 2, `My full name is ${customer}.`, undefined],
      ['agent', ASK.address],
      ['user', 3, `My new address is ${address}.`, undefined],
      ['agent', ''],
      ['tool', 'update_address'],
      ['agent', 'Done.\n<answer>updated</answer>'],
      ['user', 4, 'Thank you, that is all I needed.', 'goal_met'],
    ]);
    // The simulator is its own role's call, once per user entry; the model turns are the target's.
    expect(simulatorCalls()).toBe(out.rows.reduce((n, r) => n + r.trajectory!.filter((e) => e.kind === 'user').length, 0));
    expect(row.turns).toBe(4);
  });

  it('shows the simulated user what the agent said, never its tool calls', async () => {
    server.set({ keepPrompts: true });
    server.log.length = 0;
    await evaluate(SOLVED_SKILL);
    const prompts = server.log.filter((e) => e.stage === 'user_simulator').map((e) => e.user ?? '');
    const last = prompts.find((p) => p.includes('<answer>updated</answer>'))!;
    expect(last).toMatch(/^## The conversation so far\n\nUser: I have moved and need to change my delivery address\.\n\nAssistant: Could you tell me your full name\?/);
    expect(last).not.toContain('update_address');
    server.set({ keepPrompts: false });
  });

  it('fails a skill that never asks, and ends a user that is never satisfied at the item’s limit', async () => {
    server.log.length = 0;
    const out = await evaluate(START_SKILL);
    const statusItem = makeConversationItems().find((i) => i.kind === 'status' && i.split === 'test')!;
    const status = out.rows.find((r) => r.itemId === statusItem.id)!;
    // The agent answers at once; the user asks again until its 4 messages are spent, then gives up.
    expect(status.trajectory!.filter((e) => e.kind === 'user').map((e) => (e.kind === 'user' ? e.end ?? 'continue' : ''))).toEqual([
      'continue',
      'continue',
      'continue',
      'gave_up',
    ]);
    expect(status.hard).toBe(0);
    // Items with a goal and nothing else to score them: the user's verdict scores them.
    const goalOnly = makeConversationItems()
      .filter((i) => i.split === 'test')
      .slice(0, 4)
      .map(({ kind: _k, answers: _a, expected_tool_calls: _e, forbidden_tool_calls: _f, ...rest }) => ({ ...rest, max_user_turns: 3 }));
    const goals = data(JSON.stringify({ tools: JSON.parse(conversationDatasetText()).tools, test: goalOnly }));
    expect((await evaluate(SOLVED_SKILL, { data: goals })).rows.every((r) => r.hard === 1)).toBe(true);
    server.set({ userSimulator: 'never' });
    server.log.length = 0;
    const endless = await evaluate(SOLVED_SKILL, { data: goals });
    for (const r of endless.rows) {
      const users = r.trajectory!.filter((e) => e.kind === 'user');
      expect(users.map((e) => (e.kind === 'user' ? [e.message, e.end ?? null] : null))).toEqual([
        [2, null],
        [3, null],
        [4, 'limit'],
      ]);
      expect(r.hard).toBe(0);
      expect(r.failReason).toBe("the user's goal was not met within 3 messages");
    }
    // At most one simulator call per user message the item allows.
    expect(simulatorCalls()).toBe(endless.rows.length * 3);
    server.set({ userSimulator: 'goal' });
  });

  it('gives the same conversations at any concurrency', async () => {
    const one = await evaluate(START_SKILL, { concurrency: 1 });
    const eight = await evaluate(START_SKILL, { concurrency: 8 });
    const strip = (rows: typeof one.rows) => rows.map((r) => [r.itemId, r.hard, r.trajectory]);
    expect(strip(eight.rows)).toEqual(strip(one.rows));
  });
});
