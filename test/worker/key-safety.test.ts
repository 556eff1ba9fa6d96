// Issue #9 items 1–2: keys go only to the host they were typed for; imported runs are read-only
// until bound to the user's own endpoints; forgetting keys deletes them.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { newRun, openTab } from '../support/api-harness';

let mine: LlmTestServer;
let other: LlmTestServer;
beforeAll(async () => {
  [mine, other] = await Promise.all([startLlmServer(), startLlmServer()]);
});
afterAll(() => Promise.all([mine.close(), other.close()]));
beforeEach(() => {
  mine.log.length = 0;
  other.log.length = 0;
});

const keysFor = (url: string) => ({ target: 'sk-mine-target-1111', optimizer: 'sk-mine-optim-2222', hosts: { target: url, optimizer: url } });
const endpointsAt = (url: string) => ({ target: { baseURL: url, model: 'sim-target', maxRetries: 3, timeoutMs: 5000 }, optimizer: { baseURL: url, model: 'sim-optimizer', maxRetries: 3, timeoutMs: 5000 } });

describe('keys bound to their host', () => {
  it('an old run on another provider never receives the key typed for the current one', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, other.url, { epochs: 1, evalTest: false });
    await tab.remote.setKeys(keysFor(mine.url), false);
    const r = await tab.remote.startRun(runId);
    expect(r).toMatchObject({ ok: false, error: { kind: 'host_mismatch' } });
    if (!r.ok) {
      expect(r.error.message).toContain(new URL(other.url).origin);
      expect(r.error.message).toContain(new URL(mine.url).origin);
    }
    expect(other.log).toEqual([]);
    // A key typed for that host is sent there.
    await tab.remote.setKeys(keysFor(other.url), false);
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'completed' });
    expect(other.log.length).toBeGreaterThan(0);
    tab.close();
  }, 60_000);

  it('remembered keys keep their host across tabs', async () => {
    const dbName = `key-safety-${Date.now()}`;
    const first = await openTab({ dbName });
    const runId = await newRun(first.remote, other.url, { epochs: 1, evalTest: false });
    await first.remote.setKeys(keysFor(mine.url), true);
    first.close();
    const second = await openTab({ dbName });
    expect(await second.remote.keyStatus()).toMatchObject({ target: true, remembered: true });
    expect(await second.remote.startRun(runId)).toMatchObject({ ok: false, error: { kind: 'host_mismatch' } });
    expect(other.log).toEqual([]);
    await second.remote.forgetKeys();
    expect(await second.remote.keyStatus()).toEqual({ target: false, optimizer: false, judge: false, userSimulator: false, remembered: false });
    const third = await openTab({ dbName });
    expect(await third.remote.keyStatus()).toMatchObject({ target: false, remembered: false });
    second.close();
    third.close();
  });
});

describe('forgetting keys', () => {
  it('unticking "Remember" deletes the stored keys but keeps this tab\'s; "Forget" deletes both', async () => {
    const dbName = `forget-${Date.now()}`;
    const tab = await openTab({ dbName });
    await tab.remote.setKeys(keysFor(mine.url), true);
    const stored = async () => JSON.stringify(await tab.db.getAll('settings'));
    expect(await stored()).toContain('sk-mine-target-1111');
    await tab.remote.forgetKeys({ keepSession: true });
    expect(await stored()).not.toContain('sk-mine');
    expect(await tab.remote.keyStatus()).toEqual({ target: true, optimizer: true, judge: false, userSimulator: false, remembered: false });
    await tab.remote.setKeys(keysFor(mine.url), true);
    await tab.remote.forgetKeys();
    expect(await stored()).not.toContain('sk-mine');
    expect(await tab.remote.keyStatus()).toEqual({ target: false, optimizer: false, judge: false, userSimulator: false, remembered: false });
    tab.close();
  });
});

describe('imported runs', () => {
  it('are read-only until bound to the user’s endpoints, and never call the bundle’s host', async () => {
    const author = await openTab();
    const runId = await newRun(author.remote, other.url, { epochs: 1, evalTest: false });
    const exported = await author.remote.exportRun(runId);
    if (!exported.ok) throw new Error(exported.error.message);
    author.close();

    const tab = await openTab();
    const imported = await tab.remote.importRun(exported.file);
    if (!imported.ok) throw new Error(imported.error.message);
    const listed = (await tab.remote.listRuns()).find((r) => r.id === imported.runId)!;
    expect(listed.needsBinding).toBe(true);
    // Even with keys for the bundle's own host, an imported run does not start before it is bound.
    await tab.remote.setKeys({ target: 'sk-a', optimizer: 'sk-b', hosts: { target: other.url, optimizer: other.url } }, false);
    expect(await tab.remote.startRun(imported.runId)).toMatchObject({ ok: false, error: { kind: 'needs_binding' } });
    expect(other.log).toEqual([]);

    const myPrices = { target: { input: 2, output: 8 }, optimizer: { input: 3, output: 12 } };
    const bound = await tab.remote.bindRun(imported.runId, endpointsAt(mine.url), myPrices);
    expect(bound).toEqual({ ok: true, hosts: [new URL(mine.url).origin] });
    // Bound runs are priced at the user's rates: a bundle's zero prices cannot turn the cap off (issue #20 item 12).
    const detail = await tab.remote.getRun(imported.runId);
    expect(detail.ok && detail.detail.prices).toEqual(myPrices);
    expect((await tab.remote.listRuns()).find((r) => r.id === imported.runId)!.needsBinding).toBe(false);
    await tab.remote.setKeys(keysFor(mine.url), false);
    expect(await tab.remote.startRun(imported.runId)).toMatchObject({ ok: true, status: 'completed' });
    expect(mine.log.length).toBeGreaterThan(0);
    expect(other.log).toEqual([]);
    tab.close();
  }, 60_000);
});

describe('every held key is bound (issue #20 item 11)', () => {
  it('a key handed over while its base URL was empty is not held and goes nowhere — not to an old run on another provider', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, other.url, { epochs: 1, evalTest: false });
    await tab.remote.setKeys({ target: 'sk-unbound-1111', optimizer: 'sk-unbound-2222', hosts: { target: '', optimizer: 'not a url' } }, false);
    expect(await tab.remote.keyStatus()).toMatchObject({ target: false, optimizer: false });
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: false, error: { kind: 'missing_key' } });
    expect(other.log).toEqual([]);
    tab.close();
  });

  it('remembered keys stored without a host (before keys were bound) are dropped when loaded', async () => {
    const author = await openTab();
    // What an older version stored: keys with no hosts.
    await author.db.put('settings', { key: 'keys', value: { target: 'sk-old-aaaa', optimizer: 'sk-old-bbbb' } });
    const dbName = author.db.name;
    author.close();
    const tab = await openTab({ dbName });
    expect(await tab.remote.keyStatus()).toMatchObject({ target: false, optimizer: false });
    const runId = await newRun(tab.remote, other.url, { epochs: 1, evalTest: false });
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: false, error: { kind: 'missing_key' } });
    expect(other.log).toEqual([]);
    tab.close();
  });
});
