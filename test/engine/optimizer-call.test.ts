// Issue #9 item 12: a memoised optimizer reply is replayed only for the very same request.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { SMALL_CONFIG, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { createContext } from '../../src/engine/context';
import { modelTarget } from '../../src/engine/target/model-target';
import { Meter } from '../../src/engine/meter';
import { callOptimizer } from '../../src/engine/optimizer-call';

const server = sharedLlmServer();

async function context(store = new MemoryRunStore()) {
  const data = worldDataset(20);
  const llm = createLlmPort({ target: testEndpoint(server().url, 'sim-target'), optimizer: testEndpoint(server().url, 'sim-optimizer') }, { backoffBaseMs: 1 });
  return createContext({ runId: 'oc', config: SMALL_CONFIG, llm, store, prompts: loadPrompts(), items: data.items, meter: new Meter({}, {}), signal: new AbortController().signal, emit: () => {}, now: () => Date.now(), target: modelTarget });
}

const values = (pool: string) => ({ meta: '', skill: '# Skill', count: '2', budget: '1', pool });

describe('optimizer call memo', () => {
  it('replays the same request, and asks again when the inputs differ', async () => {
    const ctx = await context();
    const a = await callOptimizer(ctx, 's0001/rank_edits', 'rank_edits', values('[0] op=append  content="a"\n[1] op=append  content="b"'));
    expect(a.replayed).toBe(false);
    const again = await callOptimizer(ctx, 's0001/rank_edits', 'rank_edits', values('[0] op=append  content="a"\n[1] op=append  content="b"'));
    expect(again).toMatchObject({ replayed: true, json: a.json });
    expect(server().log.filter((l) => l.stage === 'rank_edits')).toHaveLength(1);
    const changed = await callOptimizer(ctx, 's0001/rank_edits', 'rank_edits', values('[0] op=append  content="c"\n[1] op=append  content="d"'));
    expect(changed.replayed).toBe(false);
    expect(server().log.filter((l) => l.stage === 'rank_edits')).toHaveLength(2);
    expect((await ctx.store.getCall('oc', 's0001/rank_edits'))!.requestPreview).toContain('content="c"');
  });

  it('replays a memo from before request hashes existed (an old run resumes without repeating calls)', async () => {
    const store = new MemoryRunStore();
    await store.putCall({ runId: 'oc', key: 's0001/rank_edits', stage: 'rank_edits', requestPreview: '', raw: '{"selected_indices":[1]}', parsed: { selected_indices: [1] }, ok: true, usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 }, latencyMs: 0 });
    const ctx = await context(store);
    const r = await callOptimizer(ctx, 's0001/rank_edits', 'rank_edits', values('anything'));
    expect(r).toMatchObject({ replayed: true, json: { selected_indices: [1] } });
    expect(server().log).toHaveLength(0);
  });
});

describe('optimizer reply cut off by the output limit (issue #9 item 9)', () => {
  it('is dropped, never repaired into partial content', async () => {
    server().set({ faults: [{ kind: 'truncated', stage: 'reflect_failure' }] });
    const ctx = await context();
    const trajectories = '### Trajectory 1\nWhat is the amber code for specimen 101?\nPredicted answer: unknown';
    const r = await callOptimizer(ctx, 's0001/reflect_failure/0', 'reflect_failure', { meta: '', skill: '# Skill', buffer: '', trajectories, failures: trajectories, n: '1' });
    expect(r.json).toBeNull();
    const call = (await ctx.store.getCall('oc', 's0001/reflect_failure/0'))!;
    expect(call.raw.length).toBeGreaterThan(10); // there was text: a repair could have made edits of it
    expect(call.ok).toBe(false);
    expect(call.error?.kind).toBe('truncated');
  });
});
