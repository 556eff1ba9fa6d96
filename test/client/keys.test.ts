/**
 * Issue #10 item 6: keys cross once. The page hands typed keys to the worker and forgets them;
 * afterwards it names roles and endpoints only (src/client/keys.ts over the real worker API).
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { openTab, type Tab } from '../support/api-harness';
import { connectTrainer, trainer } from '../../src/client/trainer-client';
import { forgetAllKeys, handOverKeys, rememberKeys } from '../../src/client/keys';
import { DEFAULT_CONNECTION, setApp, useApp } from '../../src/store/app-store';
import { getRememberedKeys } from '../../src/storage/settings-repo';

const server = sharedLlmServer();
const KEY = 'sk-handed-over-once';
let tab: Tab;

beforeEach(async () => {
  tab = await openTab();
  connectTrainer(tab.remote);
  const url = server().url;
  setApp({
    connection: { ...DEFAULT_CONNECTION, target: { baseURL: url, model: 'sim-target' }, optimizer: { baseURL: url, model: 'sim-optimizer' }, sameEndpoint: true, prices: {}, remember: false },
    keys: { target: KEY, optimizer: '' },
    heldKeys: { target: false, optimizer: false, remembered: false },
  });
});
afterEach(() => tab.close());

describe('keys handed over once', () => {
  it('leaves no copy in the page; the worker uses the key it holds for later checks', async () => {
    await handOverKeys();
    expect(useApp.getState().keys).toEqual({ target: '', optimizer: '' });
    expect(useApp.getState().heldKeys).toEqual({ target: true, optimizer: true, judge: false, userSimulator: false, remembered: false });
    expect(JSON.stringify(useApp.getState())).not.toContain(KEY);
    // The server accepts only this key: the checks pass only if the worker sends the key it holds.
    server().set({ apiKey: KEY });
    const c = useApp.getState().connection;
    const checks = await trainer().testConnection({ target: c.target, optimizer: c.optimizer });
    expect(checks.map((x) => x.ok)).toEqual([true, true]);
    expect(await trainer().listModels({ baseURL: c.target.baseURL })).toMatchObject({ ok: true });
  });

  it('remembers the held key when "Remember" is ticked after the hand-over, and forgets on request', async () => {
    await handOverKeys();
    expect(await getRememberedKeys(tab.db)).toEqual({});
    await rememberKeys(true);
    expect(await getRememberedKeys(tab.db)).toMatchObject({ target: KEY });
    expect(useApp.getState().heldKeys.remembered).toBe(true);
    await rememberKeys(false);
    expect(await getRememberedKeys(tab.db)).toEqual({});
    expect(useApp.getState().heldKeys).toMatchObject({ target: true, remembered: false }); // this tab keeps it
    await forgetAllKeys();
    expect(useApp.getState().heldKeys).toEqual({ target: false, optimizer: false, judge: false, userSimulator: false, remembered: false });
  });

  it('a hand-over followed at once by "remember" stores the handed key (the worker keeps their order)', async () => {
    setApp((s) => ({ connection: { ...s.connection, remember: false } }));
    const handed = handOverKeys();
    const remembered = rememberKeys(true);
    await Promise.all([handed, remembered]);
    expect(await getRememberedKeys(tab.db)).toMatchObject({ target: KEY });
  });

  it('hands over a separate user simulator’s key, bound to its own host (issue #31)', async () => {
    const sim = { baseURL: 'http://127.0.0.1:9/v1', model: 'sim-user', temperature: 0, maxOutputTokens: 512 };
    setApp((s) => ({ connection: { ...s.connection, userSimulator: sim }, keys: { ...s.keys, userSimulator: 'sk-sim' } }));
    await handOverKeys();
    expect(useApp.getState().keys).toEqual({ target: '', optimizer: '' });
    expect(useApp.getState().heldKeys).toMatchObject({ target: true, userSimulator: true });
    expect(JSON.stringify(useApp.getState())).not.toContain('sk-sim');
  });
});
