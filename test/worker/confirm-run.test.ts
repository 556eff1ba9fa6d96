// The page's side of a transfer (issue #42 item 5): a finished run's starting and best skills
// confirmed on another model target through the worker API, with the runner's scoring, interval
// and flip verdict; the calls counted; a confirm cut short loses nothing; keys only for their host.
import 'fake-indexeddb/auto';
import * as Comlink from 'comlink';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { contrarian } from '../support/contrarian';
import { newRun, openTab, type Tab } from '../support/api-harness';
import type { RunEventOf } from '../../src/worker/api-types';

let srv: LlmTestServer;
let other: LlmTestServer;
let tab: Tab;
let runId: string;
const MODELS = ['sim-target', 'sim-optimizer', 'sim-contrarian', 'sim-contrarian-2', 'sim-contrarian-3'];

beforeAll(async () => {
  srv = await startLlmServer({ models: MODELS, modelHook: contrarian });
  // Another provider, with a key of its own.
  other = await startLlmServer({ models: MODELS, modelHook: contrarian, apiKey: 'sk-other-host' });
  tab = await openTab();
  runId = await newRun(tab.remote, srv.url, { epochs: 1, testNoSkill: false });
  await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: srv.url, optimizer: srv.url } }, false);
  expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'completed' });
}, 120_000);
afterAll(async () => {
  tab?.close();
  await srv.close();
  await other.close();
});

const on = (url: string, model: string) => ({ baseURL: url, model, maxRetries: 2, timeoutMs: 5000 });
const asked = (s: LlmTestServer, model: string) => s.log.filter((e) => e.model === model && e.status === 200).length;

describe('confirming a finished run on another model (the page)', () => {
  it('scores both skills there, flags the flip, counts the calls and keeps the report in the run', async () => {
    const before = asked(srv, 'sim-contrarian');
    const r = await tab.remote.confirmRun(runId, on(srv.url, 'sim-contrarian'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.label).toBe('sim-contrarian');
    expect(r.calls).toBe(asked(srv, 'sim-contrarian') - before);
    expect(r.calls).toBeGreaterThan(0);
    const [trained, confirming] = r.transfer.targets;
    expect([trained.label, trained.trained, confirming.label, confirming.trained]).toEqual([
      'sim-target',
      true,
      'sim-contrarian',
      false,
    ]);
    // The contrarian knows every code alone: the starting skill is perfect there, the trained one is not.
    expect(confirming.tests.find((t) => t.skill === 'initial')!.hard).toBe(1);
    expect(confirming.lift.interval[1]).toBeLessThan(0);
    expect(r.transfer.verdict.flipped).toBe(true);
    expect(r.transfer.verdict.words).toContain(
      'Ranking flip: the best skill scores below the starting skill on sim-contrarian',
    );
    // Stored with the run: the lift card reads it, the confirm's calls join the run's usage.
    const d = await tab.remote.getRun(runId);
    if (!d.ok) throw new Error(d.error.message);
    expect(d.detail.summary!.transfer).toEqual(r.transfer);
    expect(d.detail.summary!.usage.confirm.calls).toBe(r.calls);
    expect(d.detail.endpoints.confirm).toEqual([on(srv.url, 'sim-contrarian')]);
    // Asked again: every answer is found in the run, nothing is paid twice, the same report.
    const again = await tab.remote.confirmRun(runId, on(srv.url, 'sim-contrarian'));
    expect(again).toMatchObject({ ok: true, calls: 0, transfer: r.transfer });
  }, 60_000);

  it('loses nothing when cut short: asked again, it asks only what it lacked', async () => {
    const full = await tab.remote.getRun(runId);
    if (!full.ok) throw new Error(full.error.message);
    const wholeConfirm = full.detail.summary!.usage.confirm.calls;
    const events: RunEventOf[] = [];
    const cut = tab.remote.confirmRun(
      runId,
      on(srv.url, 'sim-contrarian-2'),
      Comlink.proxy((e: RunEventOf) => void events.push(e)),
    );
    // Stopped once some of its answers are in.
    while (asked(srv, 'sim-contrarian-2') < 6) await new Promise((res) => setTimeout(res, 5));
    expect(await tab.remote.cancelRun(runId)).toBe(true);
    const stopped = await cut;
    expect(stopped.ok).toBe(false);
    const answeredBefore = asked(srv, 'sim-contrarian-2');
    const r = await tab.remote.confirmRun(runId, on(srv.url, 'sim-contrarian-2'));
    if (!r.ok) throw new Error(r.error.message);
    // What was answered before the stop is not asked again (a call cut mid-flight may be).
    expect(r.calls).toBeLessThan(wholeConfirm);
    expect(r.calls + answeredBefore).toBeGreaterThanOrEqual(wholeConfirm);
    expect(r.transfer.targets.map((t) => t.label)).toEqual(['sim-target', 'sim-contrarian', 'sim-contrarian-2']);
    expect(r.transfer.targets[2].lift.interval[1]).toBeLessThan(0);
    // A run that is done stays done.
    const d = await tab.remote.getRun(runId);
    expect(d.ok && d.detail.run.status).toBe('completed');
  }, 60_000);

  it('sends no key to another host until one is typed for it, and says a refused key is refused', async () => {
    const none = await tab.remote.confirmRun(runId, on(other.url, 'sim-contrarian-3'));
    expect(none.ok).toBe(false);
    if (!none.ok) expect(none.error.message).toContain(`No key of yours was entered for ${new URL(other.url).origin}`);
    expect(other.log).toEqual([]);
    await tab.remote.setKeys({ confirm: 'sk-wrong', hosts: { confirm: other.url } }, false);
    const wrong = await tab.remote.confirmRun(runId, on(other.url, 'sim-contrarian-3'));
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error.message).toMatch(/key/i);
    expect(wrong.ok || wrong.error.kind).toBe('llm_fatal');
    await tab.remote.setKeys({ confirm: 'sk-other-host', hosts: { confirm: other.url } }, false);
    const right = await tab.remote.confirmRun(runId, on(other.url, 'sim-contrarian-3'));
    if (!right.ok) throw new Error(right.error.message);
    expect(right.label).toBe('sim-contrarian-3');
    expect(right.transfer.targets).toHaveLength(4);
  }, 60_000);

  it('refuses an agent CLI and the training target itself, naming why', async () => {
    const cli = await tab.remote.confirmRun(runId, {
      ...on(srv.url, 'pi sim-x'),
      agentCommand: { command: 'pi', args: [] } as never,
    });
    expect(cli.ok || cli.error.message).toContain('The page cannot start an agent CLI');
    const own = await tab.remote.confirmRun(runId, on(srv.url, 'sim-target'));
    expect(own.ok || own.error.message).toContain('That is the target the run trained on');
  });
});
