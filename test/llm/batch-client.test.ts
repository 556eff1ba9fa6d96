// The target's batch client (issue #22 item 4) against the test server's batch endpoints, in
// both wire shapes, through the real SDK: answers read like live ones, failed lines as errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { testEndpoint } from '../support/endpoints';
import { RoleClient } from '../../src/llm/openai-client';
import { TargetBatchClient } from '../../src/llm/batch-client';
import { isLlmError, type BatchLine, type LlmError, type LlmResponse } from '../../src/engine/ports';
import type { BatchApi } from '../../src/core/config/batch-api';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(() => srv.close());
beforeEach(() => {
  srv.set({ faults: [], batchDelayMs: 0, batchExpireLines: 0, batchRefusal: undefined, batchApi: 'both' });
  srv.log.length = 0;
});

const SKILL = 'Answer with the specimen code.';
const line = (id: string, question: string): BatchLine => ({
  customId: id,
  request: { role: 'target', stage: 'rollout', messages: [{ role: 'system', content: SKILL }, { role: 'user', content: question }] },
});
const LINES = ['alpha', 'beta', 'gamma'].map((w, i) => line(`item-${i}`, `Question ${i}: what is the code of ${w}?`));

function client(api: BatchApi, patch = {}) {
  return new TargetBatchClient(new RoleClient('target', testEndpoint(srv.url, 'sim-target', patch)), api, 5);
}

async function settle(c: TargetBatchClient, id: string): Promise<Map<string, LlmResponse | LlmError>> {
  for (let i = 0; i < 200; i++) {
    const p = await c.progress(id);
    if (p.state === 'finished') return c.results(id);
    if (p.state === 'failed') throw new Error(p.message);
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('batch never finished');
}

describe.each(['openai', 'openrouter'] as const)('the %s batch shape', (api) => {
  it('sends every line, waits while the provider works, and reads each answer as a live call would', async () => {
    // The provider works until the test lets it finish: a timed delay raced the first poll on a busy machine.
    srv.set({ batchDelayMs: 3_600_000 });
    const c = client(api);
    const id = await c.submit(LINES);
    expect(await c.progress(id)).toMatchObject({ state: 'running', total: 3 });
    srv.set({ batchDelayMs: 0 });
    const answers = await settle(c, id);
    expect([...answers.keys()].sort()).toEqual(['item-0', 'item-1', 'item-2']);
    for (const a of answers.values()) {
      expect(isLlmError(a)).toBe(false);
      expect((a as LlmResponse).text).toMatch(/<answer>/);
      expect((a as LlmResponse).usage.promptTokens).toBeGreaterThan(0);
    }
    // The same answers the live endpoint gives, and each line was a batch line, not a live call.
    const live = await new RoleClient('target', testEndpoint(srv.url, 'sim-target')).complete(LINES[1].request);
    expect((answers.get('item-1') as LlmResponse).text).toBe(live.text);
    expect(srv.log.filter((e) => e.viaBatch).length).toBe(3);
    expect(srv.batches[srv.batches.length - 1]).toMatchObject({ shape: api === 'openai' ? 'openai' : 'inline', lines: 3 });
  });

  it('gives a failed line its error: a filter refuses the item, a server error is transient, an unrun line says so', async () => {
    srv.set({ faults: [{ kind: 'filtered', stage: 'target', match: /alpha/ }, { kind: '500', stage: 'target', match: /beta/ }] });
    const answers = await settle(client(api), await client(api).submit(LINES));
    expect((answers.get('item-0') as LlmError).kind).toBe('item_refused');
    expect((answers.get('item-1') as LlmError).kind).toBe('server');
    expect(isLlmError(answers.get('item-2'))).toBe(false);
    srv.set({ faults: [], batchExpireLines: 1 });
    const expired = await settle(client(api), await client(api).submit(LINES));
    expect((expired.get('item-2') as LlmError).message).toMatch(/batch closed before this item was answered/);
    expect(isLlmError(expired.get('item-0'))).toBe(false);
  });

  it('reports a batch refused as a whole with the provider’s reason, and a rejected key as fatal', async () => {
    srv.set({ batchRefusal: 'this model is not available for batch' });
    const c = client(api);
    expect(await c.progress(await c.submit(LINES))).toMatchObject({ state: 'failed', message: 'this model is not available for batch' });
    srv.set({ apiKey: 'the-right-key' });
    const e = await c.submit(LINES).catch((x: unknown) => x);
    srv.set({ apiKey: undefined });
    expect(isLlmError(e) && e.kind).toBe('auth');
  });
});

it('says a server without a batch API is not found (the engine then asks live)', async () => {
  srv.set({ batchApi: 'none' });
  const e = await client('openai').submit(LINES).catch((x: unknown) => x);
  expect(isLlmError(e) && e.kind).toBe('not_found');
});

it('puts endpoint and model before the inline requests (OpenRouter stream-parses the body)', async () => {
  await client('openrouter').submit(LINES);
  // The server answers 400 when "requests" comes first: a batch was created.
  expect(srv.batches[srv.batches.length - 1].shape).toBe('inline');
});
