// Test connection asks each role's model what it accepts (issue #44), against the test server
// playing each documented behaviour, and names what it found; the findings are what the run's
// requests are then built from.
import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer, type ServerOptions } from '../support/llm-server';
import { openTab } from '../support/api-harness';
import { checkEndpoint } from '../../src/service/connection-check';
import { describeCapabilities } from '../../src/core/config/capabilities';
import { testEndpoint } from '../support/endpoints';

const servers: LlmTestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function testConnection(options: Partial<ServerOptions>) {
  const srv = await startLlmServer(options);
  servers.push(srv);
  const tab = await openTab();
  await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: srv.url, optimizer: srv.url } }, false);
  const checks = await tab.remote.testConnection({
    target: { baseURL: srv.url, model: 'sim-target' },
    optimizer: { baseURL: srv.url, model: 'sim-optimizer' },
  });
  tab.close();
  const [target, optimizer] = checks;
  return { target, optimizer, srv, said: describeCapabilities(target.capabilities!) };
}

const ALL = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'];
const OPENAI_LIKE = ['none', 'low', 'medium', 'high', 'xhigh', 'max'];
/** GPT-6 Astra's efforts: no none (and on Chat Completions, tools with none of them). */
const ASTRA = ['low', 'medium', 'high', 'xhigh', 'max'];

describe('the capability probe (Test connection)', () => {
  it('a plain endpoint: chat, temperature, max_tokens, every effort, tools, json_schema', async () => {
    const { target, optimizer, said } = await testConnection({});
    expect(target.ok).toBe(true);
    expect(target.capabilities).toMatchObject({
      api: 'chat',
      temperature: true,
      tokenLimit: 'max_tokens',
      efforts: ALL,
      tools: true,
      parallelToolCalls: true,
      checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(target.capabilities?.toolEfforts).toBeUndefined();
    expect(optimizer.capabilities).toMatchObject({ jsonMode: 'json_schema' });
    expect(optimizer.capabilities?.tools).toBeUndefined(); // only the target's turns carry tools
    expect(said).toContain('function tools: accepted');
  });

  it('names a model that rejects temperature', async () => {
    const { target, said } = await testConnection({ rejectsTemperature: true });
    expect(target.capabilities?.temperature).toBe(false);
    expect(said).toContain('temperature: refused (the model’s default is used)');
  });

  it('names a model that wants max_completion_tokens', async () => {
    const { target, said } = await testConnection({ wantsMaxCompletionTokens: true });
    expect(target.capabilities?.tokenLimit).toBe('max_completion_tokens');
    expect(said).toContain('output limit: max_completion_tokens');
  });

  it('names the efforts a model accepts, and one that takes tools only with effort none', async () => {
    const { target, said } = await testConnection({ efforts: OPENAI_LIKE, toolsOnlyWithEffortNone: true });
    expect(target.capabilities).toMatchObject({ efforts: OPENAI_LIKE, tools: true, toolEfforts: ['none'] });
    // parallel_tool_calls is asked beside an effort the model takes tools with: a refusal of the
    // effort is not read as one of parallel_tool_calls.
    expect(target.capabilities?.parallelToolCalls).toBe(true);
    expect(said).toContain('reasoning efforts: none, low, medium, high, xhigh, max');
    expect(said).toContain('function tools: only with reasoning effort none (agent turns are sent so)');
  });

  it('a model that takes tools on Chat Completions with no effort it accepts (GPT-6 Astra) gets the Responses API', async () => {
    const { target, optimizer, said } = await testConnection({ efforts: ASTRA, toolsOnlyWithEffortNone: true });
    expect(target.capabilities).toMatchObject({ api: 'responses', efforts: ASTRA, tools: true });
    expect(target.capabilities?.toolEfforts).toBeUndefined();
    expect(said[0]).toMatch(/^API: Responses/);
    // The optimizer's calls carry no tools: Chat Completions serves them.
    expect(optimizer.capabilities?.api).toBe('chat');
  });

  it('names an endpoint that rejects json_schema, and one that refuses parallel_tool_calls', async () => {
    const { optimizer, target } = await testConnection({ jsonSchema: false, rejectsParallelToolCalls: true });
    expect(optimizer.capabilities?.jsonMode).toBe('json_object');
    expect(describeCapabilities(optimizer.capabilities!)).toContain('structured output: json_object');
    expect(target.capabilities?.parallelToolCalls).toBe(false);
  });

  it('chooses the Responses API where it is the only wire, and for OpenAI', async () => {
    const { target, said } = await testConnection({ responsesOnly: true, reasoningItems: true });
    expect(target.capabilities?.api).toBe('responses');
    expect(said[0]).toMatch(/^API: Responses/);
    // OpenAI's own host: its models are made for the Responses API (the host stands for the test server here).
    const srv = await startLlmServer({ efforts: OPENAI_LIKE, toolsOnlyWithEffortNone: true });
    servers.push(srv);
    const viaServer: typeof fetch = (url, init) => fetch(String(url).replace('https://api.openai.com/v1', srv.url), init);
    const openai = await checkEndpoint('target', testEndpoint('https://api.openai.com/v1', 'sim-target'), viaServer);
    expect(openai.capabilities).toMatchObject({ api: 'responses', efforts: OPENAI_LIKE, tools: true });
    // On the Responses API tools go with every effort: no limit is kept.
    expect(openai.capabilities?.toolEfforts).toBeUndefined();
  });
});
