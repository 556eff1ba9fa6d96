/**
 * The test server's agentic world (issue #30), through the real SDK: a request with tools gets the
 * simulated agent's next turn — calls with `finish_reason: 'tool_calls'`, or the final answer —
 * from the skill in its system prompt and the conversation so far; with a stochastic target every
 * turn is a sample (the same conversation asked again draws anew, a changed skill re-draws).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { RoleClient } from '../../src/llm/openai-client';
import { testEndpoint } from '../support/endpoints';
import { AGENTIC_TOOLS, RULES } from '../support/agentic-world';
import type { ChatMessage, LlmResponse } from '../../src/engine/ports';

const tools = AGENTIC_TOOLS.map((t) => t.function);
const system = (...rules: string[]) => `You are a precise assistant.\n\n## Skill\n# Desk\n\n${rules.join('\n')}\n`;
const question = "What is the status of Dana Reyes's latest order?";
const orders = 'Orders of Dana Reyes:\n- A9: $120.00, shipped (latest)\n- B4: $30.00, delivered';

async function turn(srv: LlmTestServer, messages: ChatMessage[]): Promise<LlmResponse> {
  return new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete({ role: 'target', stage: 'rollout', messages, tools });
}
/** The conversation after one search and its result. */
const searched = (sys: string): ChatMessage[] => [
  { role: 'system', content: sys },
  { role: 'user', content: question },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1_1', name: 'search_orders', arguments: '{"customer":"Dana Reyes"}' }] },
  { role: 'tool', toolCallId: 'call_1_1', content: orders },
];

describe("the test server's agentic world", () => {
  let srv: LlmTestServer;
  beforeAll(async () => {
    srv = await startLlmServer({ world: 'agentic' });
  });
  afterAll(() => srv.close());

  it('calls a tool, then answers from its result once the skill says to stop, else searches again', async () => {
    const first = await turn(srv, [
      { role: 'system', content: system(RULES.stop.text) },
      { role: 'user', content: question },
    ]);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toEqual([{ id: 'call_1_1', name: 'search_orders', arguments: '{"customer":"Dana Reyes"}' }]);
    const done = await turn(srv, searched(system(RULES.stop.text)));
    expect(done.toolCalls).toBeUndefined();
    expect(done.text).toMatch(/<answer>shipped<\/answer>/);
    const again = await turn(srv, searched(system()));
    expect(again.toolCalls?.[0]).toMatchObject({ id: 'call_2_1', name: 'search_orders' });
  });

  it('slips at the level of actions: misses a share of right actions, each repeat a fresh draw, a changed skill re-drawn', async () => {
    const noisy = await startLlmServer({ world: 'agentic', targetNoise: { miss: 0.2, guess: 0.1 }, noiseSeed: 3 });
    try {
      const answers = async (sys: string, n: number) => {
        const out: string[] = [];
        for (let i = 0; i < n; i++) out.push((await turn(noisy, searched(sys))).text);
        return out.map((t) => /<answer>(.*)<\/answer>/.exec(t)?.[1] ?? 'call');
      };
      const knows = await answers(system(RULES.stop.text), 100);
      const misses = knows.filter((a) => a === 'unknown').length;
      expect(misses).toBeGreaterThan(8);
      expect(misses).toBeLessThan(35);
      expect(knows.filter((a) => a === 'shipped').length).toBe(100 - misses);
      // Without "stop" the right action is still to answer: a lucky guess sometimes takes it.
      const loops = await answers(system(), 100);
      const lucky = loops.filter((a) => a === 'shipped').length;
      expect(lucky).toBeGreaterThan(2);
      expect(lucky).toBeLessThan(25);
      const reworded = await answers(system(RULES.stop.text, RULES.lookup.text), 100);
      expect(reworded.map((a) => a === 'unknown')).not.toEqual(knows.map((a) => a === 'unknown'));
    } finally {
      await noisy.close();
    }
  });
});
