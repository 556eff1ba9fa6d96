/**
 * Keys typed on Connect go to the worker once — the only key holder — and the page forgets
 * them at once. Afterwards the page names roles and endpoints; it never sends a key again.
 */
import { trainer } from './trainer-client';
import { effectiveKeys, setApp, useApp } from '../store/app-store';

/** What the worker holds, for the Connect screen and the start checks. */
export async function refreshHeldKeys(): Promise<void> {
  const s = await trainer().keyStatus();
  setApp({ heldKeys: { target: s.target, optimizer: s.optimizer, judge: s.judge, remembered: s.remembered } });
}

/** Hand over the keys typed since the last hand-over (each bound to its endpoint's host). */
export async function handOverKeys(): Promise<void> {
  const s = useApp.getState();
  const keys = effectiveKeys(s);
  if (!keys.target && !keys.optimizer && !keys.judge) return;
  setApp({ keys: { target: '', optimizer: '' } });
  await trainer().setKeys(keys, s.connection.remember);
  await refreshHeldKeys();
}

/** Ticking "Remember on this device" stores the keys already held; unticking deletes them (the tab keeps its own). */
export async function rememberKeys(remember: boolean): Promise<void> {
  if (remember) await trainer().setKeys({}, true);
  else await trainer().forgetKeys({ keepSession: true });
  await refreshHeldKeys();
}

/** Forget every key: the device's and this tab's. */
export async function forgetAllKeys(): Promise<void> {
  setApp({ keys: { target: '', optimizer: '' } });
  await trainer().forgetKeys();
  await refreshHeldKeys();
}
