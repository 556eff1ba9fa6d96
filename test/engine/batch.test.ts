// One-shot phases through the provider's batch API (issue #22 item 4): baseline, final
// validation and test go out as batches; the run ends as the live run does, at half the price
// of those phases; a stopped run waits for the same batch; failed lines are error rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce, type RunOptions } from '../support/harness';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { callStageOfPhase } from '../../src/core/config/stages';
import type { RunEvent } from '../../src/engine/events';
import type { RunStore } from '../../src/engine/ports';
import type { RolloutRow } from '../../src/engine/types';

const PRICES = { target: { input: 1, output: 4 }, optimizer: { input: 1, output: 4 } };
const BATCH = { batchApi: 'openai' as const, batchPollMs: 5 };
const ONE_SHOT = new Set(['baseline', 'finalValidation', 'test']);

/** What a stage's target rows cost at these prices, batch rows at half (re-samples stay live, at full price). */
async function rowCost(store: RunStore, runId: string, stage: string): Promise<{ usd: number; batchShare: number }> {
  const rows = (await store.listRollouts(runId)).filter((r) => !r.cached && callStageOfPhase(r.phase) === stage);
  const cost = (r: RolloutRow) => (r.usage.promptTokens * PRICES.target.input + r.usage.completionTokens * PRICES.target.output) / 1e6;
  return { usd: rows.reduce((a, r) => a + cost(r) * (r.viaBatch ? 0.5 : 1), 0), batchShare: rows.filter((r) => r.viaBatch).length / rows.length };
}

let live: LlmTestServer;
let reference: Awaited<ReturnType<typeof trainOnce>>;
beforeAll(async () => {
  live = await startLlmServer();
  reference = await trainOnce({ url: live.url, prices: PRICES, config: { epochs: 1 } });
});
afterAll(() => live.close());

async function batchRun(patch: Partial<Parameters<LlmTestServer['set']>[0]>, o: Partial<RunOptions> = {}) {
  const srv = await startLlmServer(patch);
  const events: RunEvent[] = [];
  const run = await trainOnce({ url: srv.url, prices: PRICES, config: { epochs: 1 }, target: BATCH, onEvent: (e) => events.push(e), ...o });
  return { srv, events, ...run };
}

describe('one-shot phases through the batch API', () => {
  it('sends the baseline, final validation and test as batches and ends as the live run does, at half their price', async () => {
    const { srv, outcome, store, runId } = await batchRun({ batchDelayMs: 20 });
    try {
      expect(outcome.status).toBe('completed');
      expect(outcome.summary?.tests).toEqual(reference.outcome.summary?.tests);
      const rows = await store.listRollouts(runId);
      const fresh = rows.filter((r) => !r.cached);
      // Every fresh one-shot row came from a batch, every step row from a live call.
      for (const r of fresh) expect([r.phase, !!r.viaBatch]).toEqual([r.phase, ONE_SHOT.has(callStageOfPhase(r.phase)) && !/\/r\d+$/.test(r.phase)]);
      expect(fresh.filter((r) => r.viaBatch).length).toBe(srv.log.filter((e) => e.viaBatch).length);
      expect(srv.batches.length).toBeGreaterThanOrEqual(3); // baseline, final validation, test
      // The same tokens as the live run; the batch lines billed at half.
      const usage = outcome.summary!.usage;
      const refUsage = reference.outcome.summary!.usage;
      expect(usage.test.promptTokens).toBe(refUsage.test.promptTokens);
      const test = await rowCost(store, runId, 'test');
      expect(test.batchShare).toBeGreaterThan(0.9);
      expect(usage.test.costUsd).toBeCloseTo(test.usd, 9);
      expect(usage.test.costUsd).toBeLessThan(refUsage.test.costUsd * 0.6);
      expect(usage.baseline.costUsd).toBeCloseTo((await rowCost(store, runId, 'baseline')).usd, 9);
      expect(usage.rollout.costUsd).toBeCloseTo(refUsage.rollout.costUsd, 9);
    } finally {
      await srv.close();
    }
  });

  it('waits for the same batch after a stop, and bills it at half after the resume', async () => {
    const srv = await startLlmServer({ batchDelayMs: 150 });
    const store = new MemoryRunStore();
    const ac = new AbortController();
    try {
      const first = await trainOnce({
        url: srv.url, prices: PRICES, config: { epochs: 1 }, target: BATCH, store, runId: 'r', signal: ac.signal,
        onEvent: (e) => void (e.type === 'log' && /as batch/.test(e.message) && ac.abort('pause')),
      });
      expect(first.outcome.status).toBe('paused');
      expect(srv.batches).toHaveLength(1);
      const events: RunEvent[] = [];
      const second = await trainOnce({ url: srv.url, prices: PRICES, config: { epochs: 1 }, target: BATCH, store, runId: 'r', onEvent: (e) => events.push(e) });
      expect(second.outcome.status).toBe('completed');
      expect(events.some((e) => e.type === 'log' && e.message.includes(`Waiting again for batch ${srv.batches[0].id}`))).toBe(true);
      // The baseline batch was polled by both sessions and never sent twice.
      expect(srv.batches.filter((b) => b.lines === srv.batches[0].lines && b.createdAt === srv.batches[0].createdAt)).toHaveLength(1);
      expect(srv.log.filter((e) => e.viaBatch).length).toBe((await store.listRollouts('r')).filter((r) => r.viaBatch && !r.cached).length);
      expect(second.outcome.summary?.tests).toEqual(reference.outcome.summary?.tests);
      // A resumed meter re-reads the batch rows at the batch price.
      expect(second.outcome.summary!.usage.test.costUsd).toBeCloseTo((await rowCost(store, 'r', 'test')).usd, 9);
      expect(second.outcome.summary!.usage.baseline.costUsd).toBeCloseTo((await rowCost(store, 'r', 'baseline')).usd, 9);
    } finally {
      await srv.close();
    }
  });

  it('makes lines the batch did not run error rows, never wrong answers, and asks them again on resume', async () => {
    // 5 of the 20 validation items unrun: past the error-rate limit (20 %), so the run pauses.
    const srv = await startLlmServer({ batchExpireLines: 5 });
    const store = new MemoryRunStore();
    try {
      const first = await trainOnce({ url: srv.url, config: { epochs: 1, evalTest: false }, target: BATCH, store, runId: 'r' });
      expect(first.outcome).toMatchObject({ status: 'paused', reasonKind: 'error_rate' });
      const errors = (await store.getRollouts('r', 'baseline')).filter((r) => r.status === 'error');
      expect(errors).toHaveLength(5);
      for (const r of errors) expect(r).toMatchObject({ viaBatch: true, hard: 0, predicted: '', error: { kind: 'server' } });
      expect(errors[0].error?.message).toMatch(/batch closed before this item was answered/);
      srv.set({ batchExpireLines: 0 });
      const second = await trainOnce({ url: srv.url, config: { epochs: 1, evalTest: false }, target: BATCH, store, runId: 'r' });
      expect(second.outcome.status).toBe('completed');
      // Only the five unanswered items went out again, as a batch of their own.
      expect(srv.batches[1].lines).toBe(5);
      expect((await store.getRollouts('r', 'baseline')).filter((r) => r.status === 'error')).toHaveLength(0);
    } finally {
      await srv.close();
    }
  });

  it('asks live, with a warning, when the endpoint has no batch API', async () => {
    const { srv, outcome, events } = await batchRun({ batchApi: 'none' });
    try {
      expect(outcome.status).toBe('completed');
      expect(outcome.summary?.tests).toEqual(reference.outcome.summary?.tests);
      expect(srv.batches).toHaveLength(0);
      expect(events.filter((e) => e.type === 'log' && /no batch API/.test(e.message))).toHaveLength(1);
    } finally {
      await srv.close();
    }
  });

  it('pauses with the provider’s reason when it refuses a batch, and sends it again on resume', async () => {
    const srv = await startLlmServer({ batchRefusal: 'batch is not available for this model' });
    const store = new MemoryRunStore();
    try {
      const first = await trainOnce({ url: srv.url, config: { epochs: 1 }, target: BATCH, store, runId: 'r' });
      expect(first.outcome).toMatchObject({ status: 'paused', reasonKind: 'llm_fatal' });
      expect(first.outcome.reason).toMatch(/refused batch .* batch is not available for this model/);
      const second = await trainOnce({ url: srv.url, config: { epochs: 1 }, target: BATCH, store, runId: 'r' });
      expect(second.outcome.status).toBe('completed');
      expect(second.outcome.summary?.tests).toEqual(reference.outcome.summary?.tests);
    } finally {
      await srv.close();
    }
  });

  // Issue #28 item 7: batches that stuck for good.
  it('makes a torn, garbled or doubled output line an error row of its item alone, asked again on resume', async () => {
    // 5 of the 20 validation items without a usable answer: past the error-rate limit, so the run pauses.
    const srv = await startLlmServer({ batchTornLines: 3, batchDuplicateLines: 2, batchGarbageLine: true });
    const store = new MemoryRunStore();
    try {
      const first = await trainOnce({ url: srv.url, config: { epochs: 1, evalTest: false }, target: BATCH, store, runId: 'r' });
      expect(first.outcome).toMatchObject({ status: 'paused', reasonKind: 'error_rate' });
      const errors = (await store.getRollouts('r', 'baseline')).filter((r) => r.status === 'error');
      const said = errors.map((r) => r.error?.message ?? '');
      expect(said.filter((m) => /answer line for this item is not readable JSON/.test(m))).toHaveLength(3);
      expect(said.filter((m) => /returned 2 answers for this item/.test(m))).toHaveLength(2);
      expect(errors).toHaveLength(5); // the garbage line names no item: every other item has its answer
      srv.set({ batchTornLines: 0, batchDuplicateLines: 0, batchGarbageLine: false });
      const second = await trainOnce({ url: srv.url, config: { epochs: 1, evalTest: false }, target: BATCH, store, runId: 'r' });
      expect(second.outcome.status).toBe('completed');
      expect((await store.getRollouts('r', 'baseline')).filter((r) => r.status === 'error')).toHaveLength(0);
    } finally {
      await srv.close();
    }
  });

  it('forgets a saved batch id the endpoint does not know, with a warning, and sends the phase again', async () => {
    const srv = await startLlmServer({ batchDelayMs: 150 });
    const store = new MemoryRunStore();
    const ac = new AbortController();
    try {
      const first = await trainOnce({
        url: srv.url, prices: PRICES, config: { epochs: 1 }, target: BATCH, store, runId: 'r', signal: ac.signal,
        onEvent: (e) => void (e.type === 'log' && /as batch/.test(e.message) && ac.abort('pause')),
      });
      expect(first.outcome.status).toBe('paused');
      srv.set({ batchForget: true, batchDelayMs: 0 });
      const events: RunEvent[] = [];
      const second = await trainOnce({ url: srv.url, prices: PRICES, config: { epochs: 1 }, target: BATCH, store, runId: 'r', onEvent: (e) => events.push(e) });
      expect(second.outcome.status, second.outcome.reason).toBe('completed');
      const warned = events.filter((e) => e.type === 'log' && e.level === 'warn' && /does not know batch/.test(e.message));
      expect(warned).toHaveLength(1);
      expect(srv.batches.filter((b) => b.lines === srv.batches[0].lines).length).toBeGreaterThanOrEqual(2); // the baseline, sent again
      expect(second.outcome.summary?.tests).toEqual(reference.outcome.summary?.tests);
    } finally {
      await srv.close();
    }
  });

  it('redacts the key and drops terminal escapes from a refused batch’s provider message', async () => {
    const srv = await startLlmServer({ batchRefusal: 'key sk-test-key-123456 may not batch \u001b[2J\u001b]0;pwned\u0007' });
    try {
      const { outcome } = await trainOnce({ url: srv.url, config: { epochs: 1 }, target: BATCH, runId: 'r' });
      expect(outcome).toMatchObject({ status: 'paused', reasonKind: 'llm_fatal' });
      expect(outcome.reason).toMatch(/key \[redacted\] may not batch/);
      expect(outcome.reason).not.toContain('sk-test-key-123456');
      expect([...(outcome.reason ?? '')].filter((ch) => ch < ' ' || (ch >= '\u007f' && ch <= '\u009f'))).toEqual([]);
    } finally {
      await srv.close();
    }
  });
});
