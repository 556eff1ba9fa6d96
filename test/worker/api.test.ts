import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as Comlink from 'comlink';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { newRun, openTab, WORLD_TEXT } from '../support/api-harness';
import { MemoryLocks } from '../../src/worker/locks';
import { RUN_DATA_STORES } from '../../src/storage/schema';
import type { RunEvent } from '../../src/engine/events';
import type { SkillwrightDb } from '../../src/storage/open-db';

let srv: LlmTestServer;
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(() => srv.close());
beforeEach(() => {
  srv.set({ faults: [], latencyMs: 0, apiKey: undefined });
  srv.log.length = 0;
});

// Bound to the test server's origin: a key without a host is not held (issue #20 item 11).
const KEYS_FOR = (url: string) => ({ target: 'sk-target-secret-4242', optimizer: 'sk-optim-secret-7777', hosts: { target: url, optimizer: url } });

async function everyStoredRow(db: SkillwrightDb): Promise<string> {
  const parts: string[] = [];
  for (const store of ['runs', 'datasets', 'settings', ...RUN_DATA_STORES] as const) parts.push(JSON.stringify(await db.getAll(store)));
  return parts.join('\n');
}

/** One completed 1-epoch run in its own tab, shared by the tests that read, export or delete it. */
let finished: Promise<{ tab: Awaited<ReturnType<typeof openTab>>; runId: string }> | undefined;
function finishedRun() {
  finished ??= (async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url, { epochs: 1 });
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'completed' });
    return { tab, runId };
  })();
  return finished;
}
afterAll(async () => (await finished)?.tab.close());

describe('worker API over a MessageChannel', () => {
  it('refuses a bad dataset with every problem and stores nothing', async () => {
    const tab = await openTab();
    const bad = JSON.stringify([{ question: 'ok', answer: 'x' }, { question: 5 }, { answer: 'y' }]);
    const r = await tab.remote.importDataset(bad, { name: 'Bad' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('invalid_dataset');
      expect(r.error.problems?.map((p) => `${p.where}: ${p.message}`)).toEqual(['row 2: the expected answer is missing', 'row 3: the question is missing or empty']);
    }
    expect(await tab.remote.listDatasets()).toEqual([]);
    const inspected = await tab.remote.stageDataset(new Blob([WORLD_TEXT]), { ratio: [2, 1, 2] });
    expect(inspected.ok).toBe(true);
    if (inspected.ok) expect(inspected.counts).toEqual({ train: 40, val: 20, test: 40 });
    expect(await tab.remote.listDatasets()).toEqual([]); // inspecting stores nothing either
    tab.close();
  });

  it('runs a training run, streaming coalesced events through a proxy, the last before it resolves', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url, { epochs: 1 });
    const events: RunEvent[] = [];
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    const r = await tab.remote.startRun(runId, Comlink.proxy((e: RunEvent) => void events.push(e)));
    expect(r).toMatchObject({ ok: true, status: 'completed' });
    expect(events[events.length - 1]).toMatchObject({ type: 'status', status: 'completed' });
    const progress = events.filter((e) => e.type === 'progress').length;
    const rollouts = (await tab.db.getAllFromIndex('rollouts', 'by-run', runId)).length;
    expect(progress).toBeGreaterThan(0);
    expect(progress).toBeLessThan(rollouts); // coalesced
    const detail = await tab.remote.getRun(runId);
    expect(detail.ok && detail.detail.summary?.tests.map((t) => t.skill)).toEqual(['none', 'initial', 'best', 'final']);
    // Each step event says the score its candidate had to beat: the baseline, then the previous step's result.
    const steps = events.filter((e): e is Extract<RunEvent, { type: 'step' }> => e.type === 'step');
    const baseline = events.find((e): e is Extract<RunEvent, { type: 'baseline' }> => e.type === 'baseline')!;
    expect(steps.map((e) => e.scoreBefore)).toEqual([baseline.score, ...steps.slice(0, -1).map((e) => e.currentScore)]);
    // Stored with each step too, so a page reading the run back shows the same figure.
    const stored = await tab.remote.getSteps(runId, 0, 100);
    expect(stored.steps.map((s) => s.scoreBefore)).toEqual(steps.map((e) => e.scoreBefore));
    const step = await tab.remote.getStepDetail(runId, 1);
    expect(step.ok && step.detail.rollouts.length).toBe(20);
    expect(step.ok && step.detail.candidateSkill).toBeTruthy();
    tab.close();
  });

  it('pauses promptly mid-run, resumes, and ends as an uninterrupted run would', async () => {
    const refTab = await openTab();
    const refId = await newRun(refTab.remote, srv.url);
    await refTab.remote.setKeys(KEYS_FOR(srv.url), false);
    await refTab.remote.startRun(refId);
    const ref = await refTab.remote.getRun(refId);

    srv.set({ latencyMs: 20 });
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url);
    let steps = 0;
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    const running = tab.remote.startRun(runId, Comlink.proxy((e: RunEvent) => {
      if (e.type === 'step' && ++steps === 1) void tab.remote.pauseRun(runId);
    }));
    const paused = await running;
    expect(paused).toMatchObject({ ok: true, status: 'paused', reason: 'Paused by you.' });
    expect((await tab.remote.listRuns())[0].status).toBe('paused');
    srv.set({ latencyMs: 0 });
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    const resumed = await tab.remote.startRun(runId);
    expect(resumed).toMatchObject({ ok: true, status: 'completed' });
    const got = await tab.remote.getRun(runId);
    if (!got.ok || !ref.ok) throw new Error('missing run');
    expect(got.detail.bestSkill).toBe(ref.detail.bestSkill);
    expect(got.detail.currentSkill).toBe(ref.detail.currentSkill);
    expect(got.detail.summary?.tests).toEqual(ref.detail.summary?.tests);
    refTab.close();
    tab.close();
  });

  it('cancels a running run and leaves consistent data', async () => {
    srv.set({ latencyMs: 20 });
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url);
    let asked = false;
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    const running = tab.remote.startRun(runId, Comlink.proxy((e: RunEvent) => {
      if (e.type === 'progress' && e.done >= 5 && !asked) {
        asked = true;
        void tab.remote.cancelRun(runId);
      }
    }));
    expect(await running).toMatchObject({ ok: true, status: 'cancelled' });
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    const again = await tab.remote.startRun(runId);
    expect(again.ok).toBe(false);
    const rows = await tab.db.getAllFromIndex('rollouts', 'by-run', runId);
    // Issue #20 items 4 and 26: the calls in flight or queued at the cancel left no error rows.
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.status !== 'ok')).toEqual([]);
    tab.close();
  });

  it('lets one tab own a run: another tab is refused and sees it read-only', async () => {
    srv.set({ latencyMs: 20 });
    const locks = new MemoryLocks();
    const name = `shared-${Date.now()}`;
    const a = await openTab({ locks, dbName: name });
    const b = await openTab({ locks, dbName: name });
    const runId = await newRun(a.remote, srv.url, { epochs: 1 });
    let started!: () => void;
    const firstEvent = new Promise<void>((r) => (started = r));
    await a.remote.setKeys(KEYS_FOR(srv.url), false);
    const running = a.remote.startRun(runId, Comlink.proxy(() => started()));
    await firstEvent; // tab A holds the lock now
    await b.remote.setKeys(KEYS_FOR(srv.url), false);
    const second = await b.remote.startRun(runId);
    expect(second).toMatchObject({ ok: false, error: { kind: 'locked' } });
    // A stale tab raising the budget writes nothing over the running run's record (issue #20 item 6).
    const budgetBefore = (await a.db.get('runs', runId))!.config.budget;
    expect(await b.remote.startRun(runId, undefined, { budget: { usd: 123 } })).toMatchObject({ ok: false, error: { kind: 'locked' } });
    expect((await a.db.get('runs', runId))!.config.budget).toEqual(budgetBefore);
    const seen = await b.remote.getRun(runId);
    expect(seen.ok && seen.detail.lockedElsewhere).toBe(true);
    expect(await b.remote.recoverInterrupted()).toEqual([]); // not interrupted: it is running elsewhere
    expect(await a.remote.pauseRun(runId)).toBe(true);
    expect(await running).toMatchObject({ ok: true, status: 'paused' });
    a.close();
    b.close();
  });

  it('asks for the keys again after a reload unless they were remembered', async () => {
    const name = `keys-${Date.now()}`;
    const first = await openTab({ dbName: name });
    const runId = await newRun(first.remote, srv.url, { epochs: 1 });
    await first.remote.setKeys(KEYS_FOR(srv.url), false);
    expect(await first.remote.keyStatus()).toEqual({ target: true, optimizer: true, judge: false, userSimulator: false, remembered: false });
    first.close();
    const reloaded = await openTab({ dbName: name });
    const r = await reloaded.remote.startRun(runId);
    expect(r).toMatchObject({ ok: false, error: { kind: 'missing_key' } });
    await reloaded.remote.setKeys(KEYS_FOR(srv.url), true);
    reloaded.close();
    const again = await openTab({ dbName: name });
    expect(await again.remote.keyStatus()).toMatchObject({ target: true, remembered: true });
    expect(await again.remote.startRun(runId)).toMatchObject({ ok: true, status: 'completed' });
    await again.remote.forgetKeys();
    expect(await again.remote.keyStatus()).toMatchObject({ target: false, remembered: false });
    again.close();
  });

  it('never stores or exports a key (every row and the bundle are searched)', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url, { epochs: 1 });
    srv.set({ faults: [{ kind: '500', stage: 'target', times: 2 }] }); // errors too must not carry keys
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    await tab.remote.startRun(runId);
    const rows = await everyStoredRow(tab.db);
    for (const k of [KEYS_FOR('').target, KEYS_FOR('').optimizer]) expect(rows).not.toContain(k);
    const exported = await tab.remote.exportRun(runId);
    expect(exported.ok).toBe(true);
    if (exported.ok) for (const k of [KEYS_FOR('').target, KEYS_FOR('').optimizer]) expect(await exported.file.text()).not.toContain(k);
    // Remembered keys live in the settings store only, and still never in an export.
    await tab.remote.setKeys(KEYS_FOR(srv.url), true);
    const after = await tab.remote.exportRun(runId);
    if (after.ok) for (const k of [KEYS_FOR('').target, KEYS_FOR('').optimizer]) expect(await after.file.text()).not.toContain(k);
    tab.close();
  });

  it('diagnoses connections: latency, rejected key, unknown model, unreachable', async () => {
    const tab = await openTab();
    srv.set({ apiKey: 'good-key', latencyMs: 40 });
    // Before any key is handed over, nothing is called: the check says which key is missing.
    const calls = srv.log.length;
    const none = await tab.remote.testConnection({ target: { baseURL: srv.url, model: 'sim-target' }, optimizer: { baseURL: srv.url, model: 'sim-optimizer' } });
    expect(none.map((r) => r.error?.kind)).toEqual(['missing_key', 'missing_key']);
    expect(srv.log.length).toBe(calls);
    // Keys are handed over once; the checks then name roles and endpoints only.
    await tab.remote.setKeys({ target: 'good-key', optimizer: 'bad-key', hosts: { target: srv.url, optimizer: srv.url } }, false);
    const ok = await tab.remote.testConnection({ target: { baseURL: srv.url, model: 'sim-target' }, optimizer: { baseURL: srv.url, model: 'nope' } });
    expect(ok[0]).toMatchObject({ role: 'target', ok: true });
    expect(ok[0].latencyMs).toBeGreaterThanOrEqual(40); // the server's own delay is measured
    expect(ok[1]).toMatchObject({ role: 'optimizer', ok: false, error: { kind: 'auth' } });
    // The optimizer key was typed for the test server: it is not sent to another host.
    const elsewhere = await tab.remote.testConnection({ target: { baseURL: srv.url, model: 'sim-target' }, optimizer: { baseURL: 'http://127.0.0.1:9/v1', model: 'm' } });
    expect(elsewhere[1]).toMatchObject({ ok: false, error: { kind: 'host_mismatch' } });
    await tab.remote.setKeys({ optimizer: 'k', hosts: { optimizer: 'http://127.0.0.1:9/v1' } }, false);
    const unknown = await tab.remote.testConnection({ target: { baseURL: srv.url, model: 'nope' }, optimizer: { baseURL: 'http://127.0.0.1:9/v1', model: 'm' } });
    expect(unknown[0]).toMatchObject({ ok: false, error: { kind: 'not_found' } });
    expect(unknown[0].error?.message).toContain('"nope"');
    expect(unknown[1]).toMatchObject({ ok: false, error: { kind: 'unreachable' } });
    const models = await tab.remote.listModels({ baseURL: srv.url });
    expect(models).toEqual({ ok: true, models: ['sim-optimizer', 'sim-target'] });
    tab.close();
  });

  it('exports a run and imports it back; refuses malformed bundles and stores nothing', async () => {
    const { tab, runId } = await finishedRun();
    const exported = await tab.remote.exportRun(runId);
    if (!exported.ok) throw new Error('export failed');
    const other = await openTab();
    const imported = await other.remote.importRun(exported.file);
    expect(imported).toMatchObject({ ok: true, runId, renamed: false });
    const [a, b] = [await tab.remote.getRun(runId), await other.remote.getRun(runId)];
    if (!a.ok || !b.ok) throw new Error('missing');
    expect(b.detail.bestSkill).toBe(a.detail.bestSkill);
    expect((await other.remote.getSteps(runId, 0, 100)).steps).toEqual((await tab.remote.getSteps(runId, 0, 100)).steps);
    expect(await other.remote.getSkillVersions(runId)).toEqual(await tab.remote.getSkillVersions(runId));
    // The dataset that came with the file is listed in the other browser (the light index is written too).
    expect(await other.remote.listDatasets()).toEqual(await tab.remote.listDatasets());
    // Importing again in the same browser keeps both, under a new id.
    const twice = await other.remote.importRun(exported.file);
    expect(twice).toMatchObject({ ok: true, renamed: true });

    const bundle = JSON.parse(await exported.file.text());
    const cases: [string, string, RegExp][] = [
      ['not JSON', '{nope', /not valid JSON/],
      ['another format', JSON.stringify({ format: 'other' }), /not a Skillwright run bundle/],
      ['a broken rollout', JSON.stringify({ ...bundle, rollouts: [{ ...bundle.rollouts[0], hard: 'high' }] }), /rollouts\.0\.hard/],
      ['rows of another run', JSON.stringify({ ...bundle, steps: [{ ...bundle.steps[0], runId: 'someone-else' }] }), /mixes runs/],
      ['a newer version', JSON.stringify({ ...bundle, version: 99 }), /version/],
    ];
    const fresh = await openTab();
    for (const [, text, reason] of cases) {
      const r = await fresh.remote.importRun(new Blob([text]));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(reason);
    }
    expect(await fresh.remote.listRuns()).toEqual([]);
    expect(await fresh.remote.listDatasets()).toEqual([]);
    for (const t of [other, fresh]) t.close();
  });

  it('compares every gated item with the current skill, also on the step after the slow-update placeholder', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url, { epochs: 2, evalTest: false });
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    await tab.remote.startRun(runId);
    const versions = await tab.remote.getSkillVersions(runId);
    expect(versions.some((v) => v.origin.startsWith('slow_update_placeholder'))).toBe(true);
    const { steps } = await tab.remote.getSteps(runId, 0, 100);
    const gated = steps.filter((s) => s.candidateHash);
    expect(gated.some((s) => s.epoch === 2)).toBe(true);
    for (const s of gated) {
      const d = await tab.remote.getStepDetail(runId, s.step);
      if (!d.ok) throw new Error(d.error.message);
      // The placeholder only adds an empty block; its rows are those of the skill it was placed in.
      expect([s.step, d.detail.currentRollouts.length]).toEqual([s.step, d.detail.gateRollouts.length]);
    }
    tab.close();
  });

  it('exports an HTML report whose figures are the run’s own', async () => {
    const { tab, runId } = await finishedRun();
    const r = await tab.remote.exportReport(runId);
    if (!r.ok) throw new Error(r.error.message);
    const html = await r.file.text();
    expect(r.file.type).toBe('text/html');
    const detail = await tab.remote.getRun(runId);
    if (!detail.ok) throw new Error('no run');
    const { steps } = await tab.remote.getSteps(runId, 0, 100);
    const accepted = steps.filter((s) => s.action.includes('accept'));
    expect(accepted.length).toBeGreaterThan(0);
    for (const s of accepted) expect(html).toContain(`<h3>Step ${s.step} (`);
    expect(html).toContain(`cost $${detail.detail.summary!.totalCostUsd.toFixed(4)}`);
    const best = detail.detail.summary!.tests.find((t) => t.skill === 'best')!;
    expect(html).toContain(`<td>Best skill (exported)</td><td>${(best.hard * 100).toFixed(1)}%</td>`);
    expect(await tab.remote.exportReport('nope')).toMatchObject({ ok: false, error: { kind: 'not_found' } });
  });

  // Last of the tests on the shared run: it deletes it.
  it('deletes a run with all of its rows', async () => {
    const { tab, runId } = await finishedRun();
    for (const store of RUN_DATA_STORES) expect(await tab.db.countFromIndex(store, 'by-run', runId)).toBeGreaterThan(0);
    expect(await tab.remote.deleteRun(runId)).toEqual({ ok: true });
    for (const store of RUN_DATA_STORES) expect(await tab.db.countFromIndex(store, 'by-run', runId)).toBe(0);
    expect(await tab.remote.listRuns()).toEqual([]);
  });
});

describe('evaluating a skill without a run', () => {
  it('scores a skill on a split and stores nothing', async () => {
    const tab = await openTab();
    const ds = await tab.remote.importDataset(WORLD_TEXT, { name: 'World', ratio: [2, 1, 2], splitSeed: 7 });
    if (!ds.ok) throw new Error('import failed');
    const { DEFAULT_RUN_CONFIG } = await import('../../src/core/config/run-config');
    const { ruleText, TOPICS } = await import('../support/rule-world');
    await tab.remote.setKeys(KEYS_FOR(srv.url), false);
    const endpoints = { target: { baseURL: srv.url, model: 'sim-target' }, optimizer: { baseURL: srv.url, model: 'sim-optimizer' } };
    const weak = await tab.remote.evaluateSkill({ datasetId: ds.dataset.id, split: 'val', limit: 0, skill: '# nothing', config: DEFAULT_RUN_CONFIG, endpoints });
    const strong = await tab.remote.evaluateSkill({ datasetId: ds.dataset.id, split: 'val', limit: 10, skill: TOPICS.slice(0, 8).map(ruleText).join('\n'), config: DEFAULT_RUN_CONFIG, endpoints });
    expect(weak).toMatchObject({ ok: true, hard: 0, n: 20 });
    expect(strong).toMatchObject({ ok: true, hard: 1, n: 10 });
    // Looks at the test split are counted (and only those): the page warns with the count.
    expect((await tab.remote.listDatasets())[0].testLooks).toBe(0);
    await tab.remote.evaluateSkill({ datasetId: ds.dataset.id, split: 'test', limit: 5, skill: '# nothing', config: DEFAULT_RUN_CONFIG, endpoints });
    expect((await tab.remote.listDatasets())[0].testLooks).toBe(1);
    expect(await tab.db.count('rollouts')).toBe(0);
    expect(await tab.remote.listRuns()).toEqual([]);
    tab.close();
  });
});
