/**
 * The page's run actions (src/client/run-controller.ts) against the real worker API over
 * Comlink (fake-indexeddb, the test server): the status the page shows is always one the
 * worker reported, refused starts put back what was shown, and start-up shows the last
 * unfinished run.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { openTab, WORLD_TEXT, newRun, type Tab } from '../support/api-harness';
import { connectTrainer } from '../../src/client/trainer-client';
import { cancelRun, recoverOnStartup, resumeRun, startTraining } from '../../src/client/run-controller';
import { DEFAULT_CONNECTION, setApp, useApp, type LiveRun } from '../../src/store/app-store';
import { SMALL_CONFIG, INITIAL_SKILL } from '../support/harness';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';

const server = sharedLlmServer();
const KEY = 'sk-client-test-123';
let tab: Tab;

beforeEach(async () => {
  tab = await openTab();
  connectTrainer(tab.remote);
  const url = server().url;
  setApp({
    connection: { ...DEFAULT_CONNECTION, target: { baseURL: url, model: 'sim-target', maxRetries: 3, timeoutMs: 5000 }, optimizer: { baseURL: url, model: 'sim-optimizer', maxRetries: 3, timeoutMs: 5000 }, sameEndpoint: true, prices: {} },
    keys: { target: KEY, optimizer: '' },
    datasetId: null,
    skill: INITIAL_SKILL,
    config: { ...DEFAULT_RUN_CONFIG, ...SMALL_CONFIG, epochs: 1, evalTest: false },
    live: null,
    problem: null,
  });
});
afterEach(() => tab.close());

/** Every distinct (status, starting) the page showed, in order. */
function watchStatus(): { seen: string[]; stop: () => void } {
  const seen: string[] = [];
  const show = (l: LiveRun | null) => l && `${l.status}${l.starting ? ' (starting)' : ''}`;
  const stop = useApp.subscribe((s) => {
    const now = show(s.live);
    if (now && seen[seen.length - 1] !== now) seen.push(now);
  });
  return { seen, stop };
}

describe('run controller', () => {
  it('shows only statuses the worker reported: starting, then running, then completed', async () => {
    const ds = await tab.remote.importDataset(WORLD_TEXT, { name: 'World', ratio: [2, 1, 2], splitSeed: 7 });
    if (!ds.ok) throw new Error(ds.error.message);
    setApp({ datasetId: ds.dataset.id });
    const w = watchStatus();
    await startTraining();
    w.stop();
    expect(w.seen[0]).toBe('idle (starting)');
    expect(w.seen).toContain('running');
    expect(w.seen[w.seen.length - 1]).toBe('completed');
    const live = useApp.getState().live!;
    expect(live.points.length).toBeGreaterThan(0);
    expect(live.baseline).toBeTypeOf('number');
    expect(useApp.getState().problem).toBeNull();
  }, 30_000);

  it('records where a branched skill came from: the new run names its parent run and version', async () => {
    const parentId = await newRun(tab.remote, server().url, { epochs: 1 });
    const run = await tab.remote.getRun(parentId);
    if (!run.ok) throw new Error('no run');
    setApp({ datasetId: run.detail.run.datasetId, skillParent: { runId: parentId, hash: 'abc', label: 'step 1 candidate' } });
    await startTraining();
    const child = (await tab.remote.listRuns()).find((r) => r.id !== parentId)!;
    expect(child.parent).toEqual({ runId: parentId, label: 'step 1 candidate' });
    expect((await tab.remote.listRuns()).find((r) => r.id === parentId)!.parent).toBeUndefined();
    setApp({ skillParent: null });
  }, 30_000);

  it('asks for a dataset, then for a key, before creating anything', async () => {
    await startTraining();
    expect(useApp.getState().problem).toMatch(/Choose a dataset/);
    const ds = await tab.remote.importDataset(WORLD_TEXT, { name: 'World', ratio: [2, 1, 2], splitSeed: 7 });
    if (!ds.ok) throw new Error(ds.error.message);
    setApp({ datasetId: ds.dataset.id, keys: { target: '', optimizer: '' } });
    await startTraining();
    expect(useApp.getState().problem).toMatch(/API key/);
    expect(await tab.remote.listRuns()).toEqual([]);
    expect(useApp.getState().live).toBeNull();
  }, 30_000);

  it('puts back the status it showed when the worker refuses a resume', async () => {
    const runId = await newRun(tab.remote, server().url, { epochs: 1 });
    setApp({ keys: { target: '', optimizer: '' } }); // no key typed and none remembered
    await resumeRun(runId);
    const live = useApp.getState().live!;
    expect(live).toMatchObject({ runId, status: 'idle' });
    expect(live.starting).toBeUndefined();
    expect(useApp.getState().problem).toMatch(/key/i);
  }, 30_000);

  it('shows the last unfinished run at start-up, with its stored chart, and cancels it', async () => {
    const runId = await newRun(tab.remote, server().url, { epochs: 1 });
    server().set({ faults: [{ kind: '500', stage: 'rank_edits' }] });
    await tab.remote.setKeys({ target: KEY, optimizer: KEY, hosts: { target: server().url, optimizer: server().url } }, false);
    const r = await tab.remote.startRun(runId);
    expect(r).toMatchObject({ ok: true, status: 'paused' });
    await recoverOnStartup();
    const live = useApp.getState().live!;
    expect(live).toMatchObject({ runId, status: 'paused' });
    expect(live.reason).toMatch(/rank/);
    expect(live.baseline).toBeTypeOf('number');
    await cancelRun();
    expect(useApp.getState().live).toMatchObject({ runId, status: 'cancelled' });
    expect((await tab.remote.listRuns())[0]).toMatchObject({ id: runId, status: 'cancelled' });
  }, 30_000);
});
