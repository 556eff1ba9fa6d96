import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { createLlmPort, RATE_LIMIT_RETRIES, rememberedJsonMode, RoleClient } from '../../src/llm/openai-client';
import { isLlmError, type LlmError, type LlmRequest } from '../../src/engine/ports';
import { testEndpoint } from '../support/endpoints';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(() => srv.close());
beforeEach(() => {
  srv.set({ faults: [], latencyMs: 0, apiKey: undefined, jsonSchema: true, jsonObject: true });
  srv.log.length = 0;
});

const targetReq = (question = 'What is the amber code for specimen 7?'): LlmRequest => ({
  role: 'target',
  stage: 'rollout',
  messages: [
    { role: 'system', content: 'Answer in tags.' },
    { role: 'user', content: question },
  ],
});

async function failure(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (e) {
    if (isLlmError(e)) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('LLM client over the real SDK and HTTP', () => {
  it('minimal headers: the SDK’s x-stainless-* headers are left out; the key and content type stay', async () => {
    await new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete(targetReq());
    await new RoleClient('target', { ...testEndpoint(srv.url, 'sim-target'), minimalHeaders: true }).complete(targetReq());
    const [full, minimal] = srv.log.map((e) => e.headerNames ?? []);
    expect(full.some((h) => h.startsWith('x-stainless-'))).toBe(true);
    expect(minimal.filter((h) => h.startsWith('x-stainless-'))).toEqual([]);
    expect(minimal).toEqual(expect.arrayContaining(['authorization', 'content-type']));
  });

  it('completes a call and reports usage', async () => {
    const c = new RoleClient('target', testEndpoint(srv.url, 'sim-target'));
    const r = await c.complete(targetReq());
    expect(r.text).toContain('<answer>unknown</answer>');
    expect(r.usage.promptTokens).toBeGreaterThan(0);
    expect(r.usage.completionTokens).toBeGreaterThan(0);
    expect(r.attempts).toBe(1);
  });

  it('reports the prompt tokens the endpoint served from its cache (billed at the cached-input price)', async () => {
    srv.set({ cachedShare: 0.5 });
    const r = await new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete(targetReq());
    srv.set({ cachedShare: undefined });
    expect(r.usage.cachedTokens).toBe(Math.floor(r.usage.promptTokens / 2));
    const plain = await new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete(targetReq());
    expect(plain.usage).not.toHaveProperty('cachedTokens');
  });

  it('says the key was rejected on a 401, without retrying and without the key in the message', async () => {
    srv.set({ apiKey: 'the-right-key' });
    const cfg = testEndpoint(srv.url, 'sim-target', { apiKey: 'sk-wrong-secret-999' });
    const e = await failure(new RoleClient('target', cfg).complete(targetReq()));
    expect(e.kind).toBe('auth');
    expect(e.fatal).toBe(true);
    expect(e.message).toMatch(/target API key was rejected \(401\)/);
    expect(e.message).not.toContain('sk-wrong-secret-999');
    expect(srv.log).toHaveLength(1);
  });

  it('names the model on a 404', async () => {
    const e = await failure(new RoleClient('optimizer', testEndpoint(srv.url, 'no-such-model')).complete(targetReq()));
    expect(e.kind).toBe('not_found');
    expect(e.message).toContain('"no-such-model"');
  });

  it('retries 500s and 429s with backoff, honouring retry-after, then succeeds', async () => {
    srv.set({ faults: [{ kind: '500', times: 2 }, { kind: '429', times: 1, retryAfter: 0 }] });
    const c = new RoleClient('target', testEndpoint(srv.url, 'sim-target'), { backoffBaseMs: 5 });
    const r = await c.complete(targetReq());
    expect(r.attempts).toBe(4);
    expect(srv.log.map((l) => l.status)).toEqual([500, 500, 429, 200]);
  });

  it('halves its concurrency on a 429 and grows back after successes', async () => {
    srv.set({ faults: [{ kind: '429', times: 1, retryAfter: 0 }] });
    const c = new RoleClient('target', testEndpoint(srv.url, 'sim-target', { concurrency: 8 }), { backoffBaseMs: 5 });
    await c.complete(targetReq());
    expect(c.pool.currentLimit).toBe(4);
    for (let i = 0; i < 40; i++) await c.complete(targetReq());
    expect(c.pool.currentLimit).toBe(8);
  });

  it('waits out more rate limits than server errors: a 429 storm slows a call, it does not fail it', async () => {
    srv.set({ faults: [{ kind: '429', times: 6, retryAfter: 0 }] });
    const r = await new RoleClient('target', testEndpoint(srv.url, 'sim-target', { maxRetries: 2 }), { backoffBaseMs: 1 }).complete(targetReq());
    expect(r.attempts).toBe(7);
    srv.set({ faults: [{ kind: '429' }] });
    srv.log.length = 0;
    const e = await failure(new RoleClient('target', testEndpoint(srv.url, 'sim-target', { maxRetries: 2 }), { backoffBaseMs: 1, maxBackoffMs: 2 }).complete(targetReq()));
    expect(e.kind).toBe('rate_limited');
    expect(srv.log).toHaveLength(RATE_LIMIT_RETRIES + 1);
  });

  it('gives up after its retries with a server error', async () => {
    srv.set({ faults: [{ kind: '500' }] });
    const e = await failure(new RoleClient('target', testEndpoint(srv.url, 'sim-target', { maxRetries: 2 }), { backoffBaseMs: 1 }).complete(targetReq()));
    expect(e.kind).toBe('server');
    expect(srv.log).toHaveLength(3);
  });

  it('times out a call that never answers', async () => {
    srv.set({ faults: [{ kind: 'timeout' }] });
    const e = await failure(new RoleClient('target', testEndpoint(srv.url, 'sim-target', { timeoutMs: 200, maxRetries: 1 }), { backoffBaseMs: 1 }).complete(targetReq()));
    expect(e.kind).toBe('timeout');
  });

  it('aborts promptly, also while waiting for a retry', async () => {
    srv.set({ latencyMs: 2000 });
    const ac = new AbortController();
    const started = Date.now();
    const p = new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete({ ...targetReq(), signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const e = await failure(p);
    expect(e.kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('asks for json_schema named after the stage, and falls back to json_object, then text', async () => {
    const schemaReq: LlmRequest = {
      role: 'optimizer',
      stage: 'rank_edits',
      messages: [{ role: 'system', content: 'You are the edit ranker. Reply in JSON.' }, { role: 'user', content: '## Edits Pool (3 edits, budget=2)' }],
      jsonSchema: { name: 'rank_edits', schema: { type: 'object', properties: {}, additionalProperties: true } },
    };
    const c1 = new RoleClient('optimizer', testEndpoint(srv.url, 'sim-optimizer'));
    expect((await c1.complete(schemaReq)).jsonMode).toBe('json_schema');
    expect(srv.log[0]).toMatchObject({ stage: 'rank_edits', responseFormat: 'json_schema' });

    srv.set({ jsonSchema: false, models: ['sim-target', 'sim-optimizer', 'weak-model'] });
    const c2 = new RoleClient('optimizer', testEndpoint(srv.url, 'weak-model'));
    const r2 = await c2.complete(schemaReq);
    expect(r2.jsonMode).toBe('json_object');
    expect(JSON.parse(r2.text).selected_indices).toEqual([0, 1]);
    expect(rememberedJsonMode(testEndpoint(srv.url, 'weak-model'))).toBe('json_object');
    srv.log.length = 0;
    await c2.complete(schemaReq);
    expect(srv.log.map((l) => l.responseFormat)).toEqual(['json_object']); // remembered: no wasted call

    srv.set({ jsonObject: false, models: ['sim-target', 'sim-optimizer', 'plain-model'] });
    const r3 = await new RoleClient('optimizer', testEndpoint(srv.url, 'plain-model')).complete(schemaReq);
    expect(r3.jsonMode).toBe('text');
    expect(r3.text).toContain('```json');
    srv.set({ jsonSchema: true, jsonObject: true, models: ['sim-target', 'sim-optimizer'] });
  });

  it('routes roles to their endpoints and keys the target settings', async () => {
    const port = createLlmPort({ target: testEndpoint(srv.url, 'sim-target'), optimizer: testEndpoint(srv.url, 'sim-optimizer') });
    await port.complete(targetReq());
    expect(srv.log[0].model).toBe('sim-target');
    expect(port.targetSettingsKey()).toContain('sim-target');
    expect(port.targetSettingsKey()).not.toContain('sk-test');
  });
});

describe('reasoning-model parameters (issue #9 item 13)', () => {
  it('falls back to max_completion_tokens and no temperature on the provider\'s 400s, each once, and remembers it', async () => {
    const reasoner = await startLlmServer({ reasoningOnly: true });
    try {
      const cfg = testEndpoint(reasoner.url, 'sim-target', { maxOutputTokens: 256, temperature: 0 });
      const first = await new RoleClient('target', cfg).complete(targetReq());
      expect(first.text).toContain('<answer>');
      // OpenAI names one parameter per refusal: each is adapted once, and said.
      expect(reasoner.log.map((l) => l.status)).toEqual([400, 400, 200]);
      expect(first.adapted).toEqual([
        'The target model sim-target wants max_completion_tokens instead of max_tokens.',
        'The target model sim-target refused temperature: it is no longer sent (the model’s default is used).',
      ]);
      // A new client for the same endpoint and model goes straight to the right parameters.
      const second = await new RoleClient('target', cfg).complete(targetReq());
      expect(reasoner.log.map((l) => l.status)).toEqual([400, 400, 200, 200]);
      expect(second.adapted).toBeUndefined();
    } finally {
      await reasoner.close();
    }
  });

  it('the per-role switch sends reasoning parameters from the first call', async () => {
    const reasoner = await startLlmServer({ reasoningOnly: true });
    try {
      const cfg = testEndpoint(reasoner.url, 'sim-optimizer', { maxOutputTokens: 256, temperature: 0, reasoningModel: true });
      await new RoleClient('target', cfg).complete(targetReq());
      expect(reasoner.log.map((l) => l.status)).toEqual([200]);
    } finally {
      await reasoner.close();
    }
  });
});

describe('service tiers (issue #22)', () => {
  it('sends the role’s service_tier, and none when unset', async () => {
    srv.set({ serviceTiers: ['auto', 'default', 'flex', 'priority'] });
    await new RoleClient('target', { ...testEndpoint(srv.url, 'sim-target'), serviceTier: 'flex' }).complete(targetReq());
    await new RoleClient('target', { ...testEndpoint(srv.url, 'sim-target'), serviceTier: 'priority' }).complete(targetReq());
    await new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete(targetReq());
    expect(srv.log.map((e) => e.serviceTier)).toEqual(['flex', 'priority', undefined]);
    srv.set({ serviceTiers: undefined });
  });

  it('a flex call refused for capacity ("Resource Unavailable", 429) is asked again until it is served', async () => {
    srv.set({ serviceTiers: ['flex'], flexUnavailableEvery: 2 });
    const client = new RoleClient('target', { ...testEndpoint(srv.url, 'sim-target', { maxRetries: 0 }), serviceTier: 'flex' }, { backoffBaseMs: 1 });
    for (let i = 0; i < 4; i++) expect((await client.complete(targetReq())).text).toMatch(/<answer>/);
    expect(srv.log.filter((e) => e.status === 429).length).toBeGreaterThan(0);
    srv.set({ serviceTiers: undefined, flexUnavailableEvery: undefined });
  });

  it('flex gets the provider’s 15-minute timeout unless the user set one, and half the list price', async () => {
    const { endpointConfig } = await import('../../src/service/llm-port');
    const { chargedPrices } = await import('../../src/core/config/service-tier');
    const { presetPrice } = await import('../../src/core/config/pricing');
    expect(endpointConfig({ baseURL: srv.url, model: 'm', serviceTier: 'flex' }, 'k', 4, 'target').timeoutMs).toBe(15 * 60_000);
    expect(endpointConfig({ baseURL: srv.url, model: 'm', serviceTier: 'flex', timeoutMs: 5000 }, 'k', 4, 'target').timeoutMs).toBe(5000);
    expect(endpointConfig({ baseURL: srv.url, model: 'm' }, 'k', 4, 'target').timeoutMs).toBe(120_000);
    const list = presetPrice('gpt-4o-mini')!;
    const flex = chargedPrices({}, { target: { model: 'gpt-4o-mini', serviceTier: 'flex' }, optimizer: { model: 'gpt-4o-mini' } });
    expect(flex.target).toEqual({ input: list.input / 2, output: list.output / 2, cachedInput: list.cachedInput! / 2 });
    expect(flex.optimizer).toEqual(list);
  });
});
