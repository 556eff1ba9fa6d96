// Runs that survive the tab (issue #11): a wake lock while running, a notification at the end.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startKeepalive, type KeepaliveEnv } from '../../src/client/run-keepalive';
import { setApp, type LiveRun } from '../../src/store/app-store';

const live = (status: LiveRun['status'], extra: Partial<LiveRun> = {}): LiveRun => ({
  runId: 'r1', status, step: 0, epoch: 0, totalSteps: 4, points: [], curve: [], usage: {}, costUsd: 0, log: [], startedAt: 0, ...extra,
});
const tick = () => new Promise((r) => setTimeout(r, 0));

function fakeEnv() {
  const events: string[] = [];
  let visible: (() => void) | null = null;
  const sentinels: { released: boolean; release(): Promise<void> }[] = [];
  const env: KeepaliveEnv = {
    wakeLock: {
      async request() {
        events.push('lock');
        const s = { released: false, async release() { s.released = true; events.push('release'); } };
        sentinels.push(s);
        return s;
      },
    },
    notify: (_title, body) => events.push(`notify: ${body}`),
    isHidden: () => false,
    onVisible: (fn) => ((visible = fn), () => (visible = null)),
  };
  return { env, events, sentinels, becomeVisible: () => visible?.() };
}

let stop: () => void = () => undefined;
beforeEach(() => setApp({ live: null, keepAwake: true, notifyOnEnd: true }));
afterEach(() => stop());

describe('run keepalive', () => {
  it('holds a wake lock while the run runs, takes it again when the page comes back, releases it at the end', async () => {
    const f = fakeEnv();
    stop = startKeepalive(f.env);
    setApp({ live: live('idle', { starting: true }) });
    await tick();
    expect(f.events).toEqual([]);
    setApp({ live: live('running') });
    await tick();
    expect(f.events).toEqual(['lock']);
    setApp({ live: live('running', { step: 2 }) }); // more events: one lock is enough
    await tick();
    expect(f.events).toEqual(['lock']);
    f.sentinels[0].released = true; // the browser released it while the page was hidden
    f.becomeVisible();
    await tick();
    expect(f.events).toEqual(['lock', 'lock']);
    setApp({ live: live('completed', { points: [{ step: 4, epoch: 1, action: 'accept', candidate: 0.9, current: 0.9, best: 0.9, trainHard: 1, editBudget: 2 }] }) });
    await tick();
    expect(f.events).toEqual(['lock', 'lock', 'release', 'notify: The run completed. Best validation 90.0%.']);
  });

  it('a refused lock is asked for again only when the page comes back or a new run starts, not on every event', async () => {
    const f = fakeEnv();
    let asks = 0;
    f.env.wakeLock = { request: async () => { asks++; throw new Error('NotAllowedError'); } };
    stop = startKeepalive(f.env);
    setApp({ live: live('running') });
    for (let i = 1; i <= 5; i++) setApp({ live: live('running', { step: i }) });
    await tick();
    expect(asks).toBe(1);
    f.becomeVisible();
    await tick();
    expect(asks).toBe(2);
    setApp({ live: live('running', { runId: 'r2' }) });
    await tick();
    expect(asks).toBe(3);
  });

  it('no lock when the user turned it off; no notification for a pause the user asked for', async () => {
    const f = fakeEnv();
    setApp({ keepAwake: false });
    stop = startKeepalive(f.env);
    setApp({ live: live('running') });
    await tick();
    setApp({ live: live('paused', { reasonKind: 'user' }) });
    await tick();
    expect(f.events).toEqual([]);
    setApp({ live: live('running') });
    setApp({ live: live('paused', { reasonKind: 'budget', reason: 'Paused at the budget cap.' }) });
    await tick();
    expect(f.events).toEqual(['notify: The run paused: Paused at the budget cap.']);
  });

  it('no notification unless asked for, and none for another run taking the screen', async () => {
    const f = fakeEnv();
    setApp({ notifyOnEnd: false, keepAwake: false });
    stop = startKeepalive(f.env);
    setApp({ live: live('running') });
    setApp({ live: live('failed', { reason: 'x' }) });
    setApp({ notifyOnEnd: true, live: live('running') });
    setApp({ live: live('completed', { runId: 'r2' }) });
    await tick();
    expect(f.events).toEqual([]);
  });
});
