// A 400 that names a parameter or a value the model refuses is adapted once, remembered, and said
// (issue #44): the test server plays OpenAI's refusals with OpenAI's words and `param`.
import { afterAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer, type ServerOptions } from '../support/llm-server';
import { RoleClient } from '../../src/llm/openai-client';
import { isLlmError, type LlmRequest } from '../../src/engine/ports';
import type { EndpointConfig } from '../../src/llm/endpoint';
import { testEndpoint } from '../support/endpoints';

const servers: LlmTestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function serve(o: Partial<ServerOptions>): Promise<LlmTestServer> {
  const srv = await startLlmServer(o);
  servers.push(srv);
  return srv;
}

const ask = (tools = false): LlmRequest => ({
  role: 'target',
  stage: 'rollout',
  messages: [
    { role: 'system', content: 'Answer in tags.' },
    { role: 'user', content: 'What is the amber code for specimen 7?' },
  ],
  ...(tools ? { tools: [{ name: 'lookup', parameters: { type: 'object', properties: {} } }] } : {}),
});

const client = (srv: LlmTestServer, patch: Partial<EndpointConfig> = {}) =>
  new RoleClient('target', testEndpoint(srv.url, 'sim-target', patch));

describe('adapting to what the model refuses', () => {
  it('a refused temperature is dropped, once for all the calls in flight', async () => {
    const srv = await serve({ rejectsTemperature: true });
    const c = client(srv);
    const rs = await Promise.all(Array.from({ length: 6 }, () => c.complete(ask())));
    expect(rs.flatMap((r) => r.adapted ?? [])).toEqual([
      'The target model sim-target refused temperature: it is no longer sent (the model’s default is used).',
    ]);
    expect(srv.log.filter((e) => e.status === 200).every((e) => !e.params?.includes('temperature'))).toBe(true);
  });

  it('max_tokens refused: the limit goes as max_completion_tokens', async () => {
    const srv = await serve({ wantsMaxCompletionTokens: true });
    const r = await client(srv, { maxOutputTokens: 300 }).complete(ask());
    expect(r.adapted).toEqual(['The target model sim-target wants max_completion_tokens instead of max_tokens.']);
    expect(srv.log.map((e) => e.status)).toEqual([400, 200]);
    expect(srv.log[1].params).toContain('max_completion_tokens');
  });

  it('an effort outside the supported values goes as the nearest one; a model that takes none gets none', async () => {
    const srv = await serve({ efforts: ['none', 'low', 'medium', 'high', 'xhigh'] });
    const r = await client(srv, { reasoningEffort: 'minimal' }).complete(ask());
    expect(r.adapted).toEqual([
      'The target model sim-target accepts reasoning efforts none, low, medium, high, xhigh: minimal is sent as low.',
    ]);
    expect(srv.log.map((e) => e.effort)).toEqual(['minimal', 'low']);
    const plain = await serve({ efforts: [] });
    const p = await client(plain, { reasoningEffort: 'high' }).complete(ask());
    expect(p.adapted).toEqual(['The target model sim-target takes no reasoning effort: it is no longer sent.']);
    expect(plain.log[1].effort).toBeUndefined();
  });

  it('tools only with effort none: agent turns go with none, other calls keep the role’s effort', async () => {
    const srv = await serve({ toolsOnlyWithEffortNone: true });
    const c = client(srv, { reasoningEffort: 'low' });
    const turn = await c.complete(ask(true));
    expect(turn.adapted?.[0]).toMatch(/takes function tools only with reasoning effort none: its agent turns are sent so/);
    // The default effort (none sent) is refused beside tools too: the model reasons by default.
    const byDefault = await client(await serve({ toolsOnlyWithEffortNone: true })).complete(ask(true));
    expect(byDefault.adapted).toHaveLength(1);
    await c.complete(ask(false));
    expect(srv.log.map((e) => [e.status, e.effort])).toEqual([
      [400, 'low'],
      [200, 'none'],
      [200, 'low'],
    ]);
  });

  it('tools with no effort the model takes on Chat Completions (GPT-6 Astra): the calls move to the Responses API', async () => {
    // Astra refuses function tools beside every effort on Chat Completions, and refuses 'none' itself.
    const srv = await serve({ efforts: ['low', 'medium', 'high', 'xhigh', 'max'], toolsOnlyWithEffortNone: true });
    const c = client(srv, { reasoningEffort: 'low' });
    const turn = await c.complete(ask(true));
    expect(turn.adapted).toEqual([
      'The target model sim-target takes function tools only with reasoning effort none: its agent turns are sent so (the Responses API keeps reasoning beside tools).',
      'The target model sim-target takes function tools on Chat Completions with no reasoning effort it accepts: its calls go to the Responses API, which takes them with any.',
    ]);
    expect(srv.log.map((e) => [e.status, e.wire ?? 'chat', e.effort])).toEqual([
      [400, 'chat', 'low'],
      [400, 'chat', 'none'],
      [200, 'responses', 'low'],
    ]);
    // Remembered: the next turn goes there at once.
    await c.complete(ask(true));
    expect(srv.log.slice(3).map((e) => [e.status, e.wire])).toEqual([[200, 'responses']]);
    // A wire chosen by hand is kept: the refusal is then an error, not a move.
    const kept = await serve({ efforts: ['low', 'medium', 'high', 'xhigh', 'max'], toolsOnlyWithEffortNone: true });
    const e = await client(kept, { reasoningEffort: 'low', api: 'chat' }).complete(ask(true)).catch((x: unknown) => x);
    expect(isLlmError(e) && e.kind).toBe('bad_request');
    expect(kept.log.every((l) => l.wire === undefined)).toBe(true);
  });

  it('a refused json_schema steps down to json_object and says so', async () => {
    const srv = await serve({ jsonSchema: false });
    const r = await new RoleClient('optimizer', testEndpoint(srv.url, 'sim-optimizer')).complete({
      role: 'optimizer',
      stage: 'rank_edits',
      messages: [{ role: 'user', content: 'Rank.' }],
      jsonSchema: { name: 'rank_edits', schema: { type: 'object' } },
    });
    expect(r.jsonMode).toBe('json_object');
    expect(r.adapted).toEqual(['The optimizer model sim-optimizer refused json_schema output: it is asked for json_object.']);
  });

  it('a refusal that names nothing sent, or the same thing again, is an error, not a loop', async () => {
    const srv = await serve({ faults: [{ kind: 'bad_param', message: "Unsupported parameter: 'temperature' is not supported with this model." }] });
    const e = await client(srv).complete(ask()).catch((x: unknown) => x);
    expect(isLlmError(e) && e.kind).toBe('bad_request');
    // Adapted once (temperature dropped), then refused again: two requests, no more.
    expect(srv.log.map((l) => l.status)).toEqual([400, 400]);
    const other = await serve({ faults: [{ kind: 'bad_param' }] });
    const e2 = await client(other).complete(ask()).catch((x: unknown) => x);
    expect(isLlmError(e2) && e2.kind).toBe('bad_request');
    expect(other.log).toHaveLength(1);
  });
});
