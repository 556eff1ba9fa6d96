// pass^k on test (issue #43), through the real SDK against the test server's stochastic target:
// each skill tries every test item k times; pass^k (all k tries pass) falls below pass^1 and
// items flip, by the amounts the target's known noise predicts — and only the k tries every item
// had alike count, never the answers settled afterwards where a first answer failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce, worldDataset } from '../support/harness';
import { noiseFreeAccuracy } from '../support/bench-quality';
import { isPass } from '../../src/core/verdict/credit';
import type { RunSummary, TestReport } from '../../src/engine/types';
import type { RunStore } from '../../src/engine/ports';

const NOISE = { miss: 0.25, guess: 0.1 };
const K = 3;

let server: LlmTestServer;
let summary: RunSummary;
let store: RunStore;
let runId: string;
let bestSkill: string;
const data = worldDataset();

beforeAll(async () => {
  server = await startLlmServer({ world: 'easy', targetNoise: NOISE, noiseSeed: 5 });
  const run = await trainOnce({ url: server.url, data, config: { epochs: 1, testRepeats: K, maxSamples: 5 } });
  expect(run.outcome.status).toBe('completed');
  ({ store, runId } = run);
  summary = run.outcome.summary!;
  bestSkill = (await store.loadState(runId))!.gate.bestSkill;
}, 180_000); // a whole run on a busy machine

afterAll(() => server.close());

const test = (skill: TestReport['skill']) => summary.tests.find((t) => t.skill === skill)!;

describe('pass^k on a noisy target', () => {
  it('reports pass^k below pass^1, and items whose tries disagree, for every skill', () => {
    const n = data.splits.test.length;
    for (const t of summary.tests) {
      expect(t.passK, t.skill).toMatchObject({ k: K, items: n, short: 0 });
      expect(t.passK!.passAtK, t.skill).toBeLessThan(t.passK!.passAt1);
      expect(t.passK!.flipRate, t.skill).toBeGreaterThan(0);
    }
  });

  it('is the k tries of each item, counted from the stored rows, without the answers settled afterwards', async () => {
    const rows = await store.listRollouts(runId);
    const best = test('best');
    const tries = new Map<string, boolean[]>();
    for (const r of rows) {
      if (!/^test\/best(\/r[12])?$/.test(r.phase) || r.status !== 'ok') continue;
      tries.set(r.itemId, [...(tries.get(r.itemId) ?? []), isPass(r.hard)]);
    }
    expect([...tries.values()].every((xs) => xs.length === K)).toBe(true);
    const ids = [...tries.keys()];
    const share = (f: (xs: boolean[]) => boolean) => ids.filter((id) => f(tries.get(id)!)).length / ids.length;
    const mean = ids.reduce((s, id) => s + tries.get(id)!.filter(Boolean).length / K, 0) / ids.length;
    expect(best.passK!.passAt1).toBeCloseTo(mean, 12);
    expect(best.passK!.passAtK).toBeCloseTo(share((xs) => xs.every(Boolean)), 12);
    expect(best.passK!.flipRate).toBeCloseTo(share((xs) => xs.some(Boolean) && !xs.every(Boolean)), 12);
    // The best skill's failures were asked again to settle the lift: those answers are not tries.
    expect(rows.some((r) => r.phase === 'test/best/r3')).toBe(true);
  });

  it('matches what the known noise predicts for the trained skill', () => {
    // A known item passes with chance 1 − miss, an unknown one with chance guess, on each try.
    const known = noiseFreeAccuracy(bestSkill, data, null);
    const expected = (k: number) => known * (1 - NOISE.miss) ** k + (1 - known) * NOISE.guess ** k;
    const best = test('best').passK!;
    expect(known).toBeGreaterThan(0.5);
    expect(Math.abs(best.passAt1 - expected(1))).toBeLessThan(0.1);
    expect(Math.abs(best.passAtK - expected(K))).toBeLessThan(0.1);
    expect(best.passAt1 - best.passAtK).toBeGreaterThan(0.2);
  });
});
