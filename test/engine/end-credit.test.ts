// Section credit of the best skill at a run's end (issue #43 item 4, config.sectionCreditBudget), through
// the real SDK and the test LLM server: the credit world's planted sections are recovered within their
// intervals, the result is in the run's summary with its calls and cost, and an interrupted credit resumes
// from the masks it stored — the same report, no mask rolled out twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import { CREDIT_SKILL, creditWorldItems, plantedEffects } from '../support/credit-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { MemoryRunStore } from '../../src/storage/memory-store';
import type { RunDataset, RunSummary } from '../../src/engine/types';
import type { RunEvent } from '../../src/engine/events';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({});
});
afterAll(() => server.close());

const items = creditWorldItems(24);
const val = items.filter((i) => i.split === 'val');

function data(): RunDataset {
  const r = importDatasetText(JSON.stringify(items), { fileName: 'credit.json' });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits };
}

const config = { epochs: 1, batchSize: 4, sectionCreditBudget: 300, seed: 11 };
const PRICES = { target: { input: 1, output: 2 }, optimizer: { input: 1, output: 2 } };
const creditCalls = () => server.log.filter((e) => e.stage === 'target').length;

function credited(summary: RunSummary | undefined) {
  const c = summary?.sectionCredit;
  if (!c?.ok) throw new Error(`no credit: ${JSON.stringify(c)}`);
  return c;
}

describe('section credit at the end of a run (issue #43 item 4)', () => {
  it('credits the best skill within its budget, stored in the summary with its calls and cost', async () => {
    const { outcome, store, runId } = await trainOnce({
      url: server.url,
      config,
      data: data(),
      initialSkill: CREDIT_SKILL,
      prices: PRICES,
    });
    expect(outcome.status).toBe('completed');
    const state = await store.loadState(runId);
    const c = credited(outcome.summary);
    expect(c.budget).toBe(300);
    expect(c.calls).toBeLessThanOrEqual(300);
    expect(c.masks).toBeGreaterThanOrEqual(8); // 3 sections need at least 8 masks
    // The meter bills the masks to their own stage: the summary's usage holds exactly the credit's calls.
    expect(outcome.summary!.usage.sectionCredit.calls).toBe(c.calls);
    expect(c.costUsd).toBeGreaterThan(0);
    expect(c.costUsd).toBeCloseTo(outcome.summary!.usage.sectionCredit.costUsd, 9);
    // Whatever training made of the skill, the credit is of the best one: its planted effects are in the intervals.
    const best = state!.gate.bestSkill;
    const planted = plantedEffects(best, val);
    expect(c.report.sections.length).toBe(planted.length);
    c.report.sections.forEach((s, j) => {
      expect(s.low!, s.title).toBeLessThanOrEqual(planted[j] + 1e-9);
      expect(s.high!, s.title).toBeGreaterThanOrEqual(planted[j] - 1e-9);
    });
    // The masks the run had rolled out already (the whole skill, on validation) are cache hits, which carry
    // no usage: their tokens are the first rollout's, so every section is priced by its text.
    c.report.sections.forEach((s) => expect(s.tokens, s.title).toBeGreaterThan(5));
    expect(c.report.skillCostUsd).toBeGreaterThan(0);
    expect(state!.summary!.sectionCredit).toEqual(c);
  });

  it('is off by default: no credit, no calls billed to it', async () => {
    const { outcome } = await trainOnce({
      url: server.url,
      config: { ...config, sectionCreditBudget: 0 },
      data: data(),
      initialSkill: CREDIT_SKILL,
    });
    expect(outcome.status).toBe('completed');
    expect(outcome.summary!.sectionCredit).toBeUndefined();
    expect(outcome.summary!.usage.sectionCredit).toBeUndefined();
  });

  it('records why a credit could not be made, and the run still completes', async () => {
    const { outcome } = await trainOnce({
      url: server.url,
      config: { ...config, sectionCreditBudget: 10 },
      data: data(),
      initialSkill: CREDIT_SKILL,
    });
    expect(outcome.status).toBe('completed');
    expect(outcome.summary!.sectionCredit).toMatchObject({ ok: false, budget: 10 });
    expect(outcome.summary!.sectionCredit!.ok === false && outcome.summary!.sectionCredit!.reason).toContain(
      'too small',
    );
  });

  it('resumes an interrupted credit from its stored masks: the same report, no mask rolled out twice', async () => {
    server.log.length = 0;
    const whole = await trainOnce({
      url: server.url,
      config,
      data: data(),
      initialSkill: CREDIT_SKILL,
      runId: 'whole',
    });
    const wholeCalls = creditCalls();
    const reference = credited(whole.outcome.summary);

    server.log.length = 0;
    const store = new MemoryRunStore();
    const stop = new AbortController();
    let crediting = false;
    let usages = 0;
    const onEvent = (e: RunEvent) => {
      if (e.type === 'stage' && e.stage === 'credit') crediting = true;
      // Two masks checkpointed, then a stop in the middle of the third.
      if (crediting && e.type === 'usage' && ++usages === 2) stop.abort('pause');
    };
    const first = await trainOnce({
      url: server.url,
      config,
      data: data(),
      initialSkill: CREDIT_SKILL,
      store,
      runId: 'r',
      signal: stop.signal,
      onEvent,
    });
    expect(first.outcome.status).toBe('paused');
    const paused = await store.loadState('r');
    expect(paused!.creditProgress!.masks).toBe(2);
    expect(paused!.summary!.sectionCredit).toBeUndefined();

    const again = await trainOnce({
      url: server.url,
      config,
      data: data(),
      initialSkill: CREDIT_SKILL,
      store,
      runId: 'r',
    });
    expect(again.outcome.status).toBe('completed');
    const resumed = credited(again.outcome.summary);
    expect(resumed.report).toEqual(reference.report);
    expect(resumed.masks).toBe(reference.masks);
    // Both sessions together call the target no more than the uninterrupted run (at most the 4 rows in flight at the stop are lost).
    expect(creditCalls()).toBeLessThanOrEqual(wholeCalls + 4);
    expect(resumed.calls).toBeLessThanOrEqual(reference.calls + 4);
  });
});
