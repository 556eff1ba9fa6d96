/**
 * Runs that survive the tab (issue #11): while a run is running, optionally hold a screen wake
 * lock (a sleeping device stops the page), and when it ends, optionally notify — the user may
 * be in another tab. Browsers release a wake lock when the page is hidden, so it is taken
 * again when the page comes back.
 */
import { useApp, type AppState } from '../store/app-store';

interface WakeLockSentinelLike {
  released: boolean;
  release(): Promise<void>;
}

/** The browser features used, injectable so that tests can drive them. */
export interface KeepaliveEnv {
  wakeLock?: { request(type: 'screen'): Promise<WakeLockSentinelLike> };
  notify?: (title: string, body: string) => void;
  isHidden: () => boolean;
  onVisible: (fn: () => void) => () => void;
}

export function browserEnv(): KeepaliveEnv {
  const nav = globalThis.navigator as (Navigator & { wakeLock?: KeepaliveEnv['wakeLock'] }) | undefined;
  const N = (globalThis as { Notification?: typeof Notification }).Notification;
  return {
    wakeLock: nav?.wakeLock,
    notify: N
      ? (title, body) => N.permission === 'granted' && void new N(title, { body, tag: 'skillwright-run' })
      : undefined,
    isHidden: () => globalThis.document?.visibilityState === 'hidden',
    onVisible: (fn) => {
      const handler = () => globalThis.document?.visibilityState === 'visible' && fn();
      globalThis.document?.addEventListener('visibilitychange', handler);
      return () => globalThis.document?.removeEventListener('visibilitychange', handler);
    },
  };
}

const ENDINGS: Record<string, string> = { completed: 'completed', failed: 'failed', paused: 'paused' };

/** What a run's end says in a notification. */
export function endMessage(live: NonNullable<AppState['live']>): string | null {
  const end = ENDINGS[live.status];
  if (!end) return null;
  if (live.status === 'paused' && live.reasonKind === 'user') return null; // the user paused it: they know
  const best = live.points.length
    ? ` Best validation ${(live.points[live.points.length - 1].best * 100).toFixed(1)}%.`
    : '';
  return live.status === 'completed'
    ? `The run completed.${best}`
    : `The run ${end}: ${live.reason ?? 'see the Train screen.'}`;
}

/** Follow the live run's status; returns the function that stops following. */
export function startKeepalive(env: KeepaliveEnv = browserEnv()): () => void {
  let lock: WakeLockSentinelLike | null = null;
  let taking = false;
  // A refused lock is not asked for again on every event: only when the page comes back or a run starts.
  let refused = false;
  const wanted = () => {
    const s = useApp.getState();
    return s.keepAwake && s.live?.status === 'running';
  };
  const sync = async () => {
    if (wanted() && (!lock || lock.released) && env.wakeLock && !taking && !refused) {
      taking = true;
      try {
        lock = await env.wakeLock.request('screen');
      } catch {
        lock = null; // refused (battery saver, no screen): the run goes on without it
        refused = true;
      } finally {
        taking = false;
      }
      if (!wanted()) void release();
    } else if (!wanted()) await release();
  };
  const release = async () => {
    const l = lock;
    lock = null;
    if (l && !l.released) await l.release().catch(() => undefined);
  };
  let last = useApp.getState().live;
  const unsubscribe = useApp.subscribe((s) => {
    const prev = last;
    last = s.live;
    if (prev?.runId !== s.live?.runId || (prev?.status !== 'running' && s.live?.status === 'running')) refused = false;
    void sync();
    if (!s.notifyOnEnd || !s.live || !prev || prev.runId !== s.live.runId) return;
    if (prev.status === 'running' && s.live.status !== 'running') {
      const body = endMessage(s.live);
      if (body) env.notify?.('Skillwright', body);
    }
  });
  const stopVisible = env.onVisible(() => {
    refused = false;
    void sync();
  });
  void sync();
  return () => {
    unsubscribe();
    stopVisible();
    void release();
  };
}
