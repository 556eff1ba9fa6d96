// The Responses API as a wire behind the same port (issue #44): text, tool calls, a reasoning
// model's reasoning items passed back between turns, usage (reasoning and cached tokens) and
// errors as on Chat Completions — against the test server's Responses route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { RoleClient } from '../../src/llm/openai-client';
import { isLlmError, type ChatMessage, type LlmRequest } from '../../src/engine/ports';
import { testEndpoint } from '../support/endpoints';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer({
    reasoningItems: true,
    cachedShare: 0.5,
    apiKey: 'sk-test-key-123456',
    // A one-tool agent: it looks the code up, then answers with what the tool said.
    agentPolicy: (r) => {
      const result = r.messages.find((m) => m.role === 'tool');
      return result ? { content: `<answer>${result.content}</answer>` } : { toolCalls: [{ name: 'lookup', arguments: { code: '7' } }] };
    },
  });
});
afterAll(() => srv.close());

const target = (patch = {}) => new RoleClient('target', testEndpoint(srv.url, 'sim-target', { api: 'responses', ...patch }));
const question: ChatMessage[] = [
  { role: 'system', content: 'Answer in tags.' },
  { role: 'user', content: 'What is the amber code for specimen 7?' },
];
const tools: LlmRequest['tools'] = [{ name: 'lookup', parameters: { type: 'object', properties: { code: { type: 'string' } } } }];

describe('the Responses API wire', () => {
  it('answers a plain call; usage counts reasoning and cached tokens', async () => {
    const r = await target({ reasoningEffort: 'high' }).complete({ role: 'target', stage: 'rollout', messages: question });
    expect(r.text).toContain('<answer>');
    expect(srv.log.at(-1)).toMatchObject({ wire: 'responses', effort: 'high', status: 200 });
    expect(r.usage.reasoningTokens).toBe(16);
    expect(r.usage.cachedTokens).toBe(Math.floor(r.usage.promptTokens * 0.5));
  });

  it('carries the reasoning items of a turn back with its calls; without them the endpoint refuses', async () => {
    const c = target({ reasoningEffort: 'low' });
    const first = await c.complete({ role: 'target', stage: 'rollout', messages: question, tools });
    expect(first.toolCalls).toEqual([{ id: expect.any(String), name: 'lookup', arguments: '{"code":"7"}' }]);
    expect(first.reasoning).toEqual([expect.objectContaining({ type: 'reasoning', encrypted_content: expect.any(String) })]);
    const call = first.toolCalls![0];
    const turn = (reasoning?: ChatMessage & { role: 'assistant' }): ChatMessage[] => [
      ...question,
      reasoning ?? { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, content: 'AMB-7' },
    ];
    const carried = srv.reasoningCarried();
    const second = await c.complete({
      role: 'target',
      stage: 'rollout',
      messages: turn({ role: 'assistant', content: '', toolCalls: [call], reasoning: first.reasoning }),
      tools,
    });
    expect(second.text).toBe('<answer>AMB-7</answer>');
    expect(srv.reasoningCarried()).toBe(carried + 1);
    // Chat Completions' way — the reasoning dropped between turns — is what OpenAI refuses here.
    const dropped = await c.complete({ role: 'target', stage: 'rollout', messages: turn(), tools }).catch((e: unknown) => e);
    expect(isLlmError(dropped) && dropped.kind).toBe('bad_request');
    expect(isLlmError(dropped) && dropped.message).toMatch(/without its required 'reasoning' item/);
  });

  it('asks for structured output with text.format, and maps errors as on Chat Completions', async () => {
    const opt = new RoleClient('optimizer', testEndpoint(srv.url, 'sim-optimizer', { api: 'responses' }));
    const r = await opt.complete({
      role: 'optimizer',
      stage: 'rank_edits',
      messages: [{ role: 'user', content: 'Rank these edits.' }],
      jsonSchema: { name: 'rank_edits', schema: { type: 'object' } },
    });
    expect(r.jsonMode).toBe('json_schema');
    expect(srv.log.at(-1)).toMatchObject({ wire: 'responses', stage: 'rank_edits', responseFormat: 'json_schema' });
    const wrongKey = new RoleClient('target', testEndpoint(srv.url, 'sim-target', { api: 'responses', apiKey: 'sk-wrong-0000' }));
    const e = await wrongKey.complete({ role: 'target', stage: 'rollout', messages: question }).catch((x: unknown) => x);
    expect(isLlmError(e) && e.kind).toBe('auth');
    const unknown = new RoleClient('target', testEndpoint(srv.url, 'nope', { api: 'responses' }));
    const n = await unknown.complete({ role: 'target', stage: 'rollout', messages: question }).catch((x: unknown) => x);
    expect(isLlmError(n) && n.kind).toBe('not_found');
  });

  it('adapts to a refused temperature on this wire too', async () => {
    const strict = await startLlmServer({ rejectsTemperature: true });
    try {
      const r = await new RoleClient('target', testEndpoint(strict.url, 'sim-target', { api: 'responses' })).complete({
        role: 'target',
        stage: 'rollout',
        messages: question,
      });
      expect(r.adapted).toEqual(['The target model sim-target refused temperature: it is no longer sent (the model’s default is used).']);
      expect(strict.log.map((e) => [e.wire, e.status])).toEqual([
        ['responses', 400],
        ['responses', 200],
      ]);
    } finally {
      await strict.close();
    }
  });
});
