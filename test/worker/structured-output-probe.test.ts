// The connection test finds which structured output the optimizer's endpoint keeps to (issue #23):
// LM Studio takes json_schema but not json_object, some servers take neither, Ollama Cloud takes a
// schema and ignores it. Each is named, and remembered for the run's calls.
import 'fake-indexeddb/auto';
import { afterAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer, type ServerOptions } from '../support/llm-server';
import { openTab } from '../support/api-harness';
import { rememberedJsonMode } from '../../src/llm/openai-client';
import { testEndpoint } from '../support/endpoints';
import { contextFix } from '../../src/worker/connection-doctor';
import { isLocalEndpoint } from '../../src/core/config/local-endpoint';

const servers: LlmTestServer[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function probe(options: Partial<ServerOptions>) {
  const srv = await startLlmServer(options);
  servers.push(srv);
  const tab = await openTab();
  await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: srv.url, optimizer: srv.url } }, false);
  const checks = await tab.remote.testConnection({ target: { baseURL: srv.url, model: 'sim-target' }, optimizer: { baseURL: srv.url, model: 'sim-optimizer' } });
  tab.close();
  return { checks, srv };
}

describe('structured-output probe', () => {
  it.each([
    ['json_schema honoured', {}, { mode: 'json_schema', schemaIgnored: false }],
    ['json_object only', { jsonSchema: false }, { mode: 'json_object', schemaIgnored: false }],
    ['neither (text and extraction)', { jsonSchema: false, jsonObject: false }, { mode: 'none', schemaIgnored: false }],
    ['a schema accepted and ignored', { ignoreSchema: true }, { mode: 'none', schemaIgnored: true }],
  ] as const)('%s', async (_name, options, expected) => {
    const { checks, srv } = await probe(options);
    expect(checks[0]).toMatchObject({ role: 'target', ok: true });
    expect(checks[0].structuredOutput).toBeUndefined();
    expect(checks[1]).toMatchObject({ role: 'optimizer', ok: true, structuredOutput: expected });
    // Remembered for the optimizer's calls (the worker's client steps down no further).
    const remembered = rememberedJsonMode(testEndpoint(srv.url, 'sim-optimizer'));
    expect(remembered).toBe(expected.mode === 'none' ? 'text' : expected.mode);
  });
});

describe('context doctor (issue #23)', () => {
  it('finds a local server that cuts long prompts off, and says the fix', async () => {
    const { checks } = await probe({ contextTokens: 2048 });
    expect(checks[0].context?.truncatedAt).toBe(2048);
    expect(checks[0].context?.fix).toMatch(/cuts prompts at about 2048 tokens/);
    expect(checks[1].context?.truncatedAt).toBe(2048);
    const whole = await probe({});
    expect(whole.checks.every((c) => c.context === undefined)).toBe(true);
  });

  it('names the fix per server, and probes only servers on the user’s own machine or network', () => {
    expect(contextFix('http://localhost:11434/v1', 2048)).toMatch(/OLLAMA_CONTEXT_LENGTH=16384.*num_ctx/);
    expect(contextFix('http://127.0.0.1:8080/v1', 4096)).toMatch(/-c 16384/);
    expect(contextFix('http://localhost:1234/v1', 4096)).toMatch(/LM Studio/);
    expect(isLocalEndpoint('http://192.168.1.20:11434/v1')).toBe(true);
    expect(isLocalEndpoint('https://api.openai.com/v1')).toBe(false);
  });
});
