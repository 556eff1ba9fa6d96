// Issue #9 item 5: the USD cap always holds, and nothing is counted free.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { SMALL_CONFIG, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { createContext } from '../../src/engine/context';
import { modelTarget } from '../../src/engine/target/model-target';
import { Meter, outputLimits, type Prices } from '../../src/engine/meter';
import { callOptimizer } from '../../src/engine/optimizer-call';
import { isPauseError } from '../../src/engine/pause';
import type { RunEvent } from '../../src/engine/events';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(() => srv.close());
beforeEach(() => {
  srv.set({ faults: [], completionTokens: undefined, omitUsage: false });
  srv.log.length = 0;
});

async function context(prices: Prices, usd?: number) {
  const data = worldDataset(20);
  const llm = createLlmPort(
    { target: testEndpoint(srv.url, 'sim-target'), optimizer: testEndpoint(srv.url, 'sim-optimizer', { maxOutputTokens: 8192, concurrency: 8 }) },
    { backoffBaseMs: 1 },
  );
  const events: RunEvent[] = [];
  const meter = new Meter(prices, usd === undefined ? {} : { usd }, outputLimits(llm));
  const ctx = await createContext({ runId: 'cap', config: SMALL_CONFIG, llm, store: new MemoryRunStore(), prompts: loadPrompts(), items: data.items, meter, signal: new AbortController().signal, emit: (e) => void events.push(e), now: () => Date.now(), target: modelTarget });
  return { ctx, meter, events };
}

const rank = (i: number) => ({ meta: '', skill: '# Skill', count: '2', budget: '1', pool: `[0] op=append  content="rule ${i}"\n[1] op=append  content="other ${i}"` });

describe('budget cap', () => {
  it('8 concurrent reasoning-size calls at a time under a $1 cap never spend more than $1', async () => {
    srv.set({ completionTokens: 8000 }); // each reply bills 8 000 output tokens: $0.08 at $10 / M
    const { ctx, meter } = await context({ optimizer: { input: 0, output: 10 } }, 1);
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => callOptimizer(ctx, `k${i}`, 'rank_edits', rank(i))));
    const paused = results.filter((r) => r.status === 'rejected');
    expect(paused.length).toBeGreaterThan(0);
    for (const r of paused) expect(isPauseError((r as PromiseRejectedResult).reason)).toBe(true);
    const made = srv.log.filter((l) => l.status === 200).length;
    expect(made * 8000 * 10 / 1e6).toBeLessThanOrEqual(1);
    expect(meter.totalCostUsd).toBeLessThanOrEqual(1);
    expect(meter.totalCostUsd).toBeGreaterThan(0.5); // the cap is used, not just refused
  });

  it('a reply without usage is estimated from characters, and the run says so once', async () => {
    srv.set({ omitUsage: true });
    const { ctx, meter, events } = await context({ optimizer: { input: 1, output: 1 } });
    await callOptimizer(ctx, 'a', 'rank_edits', rank(1));
    await callOptimizer(ctx, 'b', 'rank_edits', rank(2));
    expect(meter.totalTokens).toBeGreaterThan(100);
    expect(meter.totalCostUsd).toBeGreaterThan(0);
    expect(events.filter((e) => e.type === 'log' && /estimated from characters/.test(e.message))).toHaveLength(1);
  });

  it('a reply cut off empty by the output limit is still counted (the provider bills it)', async () => {
    srv.set({ faults: [{ kind: 'length_empty' }], completionTokens: 8192 });
    const { ctx, meter } = await context({ optimizer: { input: 0, output: 10 } });
    const r = await callOptimizer(ctx, 'cut', 'rank_edits', rank(1));
    expect(r.error?.kind).toBe('truncated');
    expect(meter.byStage.rank?.completionTokens).toBe(8192);
    expect(meter.totalCostUsd).toBeCloseTo(8192 * 10 / 1e6, 9);
  });
});
