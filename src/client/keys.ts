/**
 * Keys typed on Connect go to the worker once — the only key holder — and the page forgets
 * them at once. Afterwards the page names roles and endpoints; it never sends a key again.
 */
import { trainer } from './trainer-client';
import { effectiveKeys, setApp, useApp } from '../store/app-store';

/** What the worker holds, for the Connect screen and the start checks. */
export async function refreshHeldKeys(): Promise<void> {
  const s = await trainer().keyStatus();
  setApp({
    heldKeys: {
      target: s.target,
      optimizer: s.optimizer,
      judge: s.judge,
      userSimulator: s.userSimulator,
      remembered: s.remembered,
    },
  });
}

/** An http(s) address a key can be bound to. */
function bindable(url: string | undefined): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url ?? '').protocol);
  } catch {
    return false;
  }
}

/**
 * Hand over the keys typed since the last hand-over, each bound to its endpoint's host. A key
 * whose base URL is empty or not an address stays in its field (the worker would hold it for
 * no host, and send it nowhere): nothing typed is lost.
 */
export async function handOverKeys(): Promise<void> {
  const s = useApp.getState();
  const keys = effectiveKeys(s);
  const send = {
    target: bindable(keys.hosts.target) ? keys.target : '',
    optimizer: bindable(keys.hosts.optimizer) ? keys.optimizer : '',
    ...(keys.judge && bindable(keys.hosts.judge) ? { judge: keys.judge } : {}),
    ...(keys.userSimulator && bindable(keys.hosts.userSimulator) ? { userSimulator: keys.userSimulator } : {}),
  };
  if (!send.target && !send.optimizer && !('judge' in send) && !('userSimulator' in send)) return;
  // The optimizer shares the target's field when "same endpoint" is on.
  const keep = {
    target: send.target ? '' : s.keys.target,
    optimizer: send.optimizer || s.connection.sameEndpoint ? '' : s.keys.optimizer,
    ...(s.keys.judge && !('judge' in send) ? { judge: s.keys.judge } : {}),
    ...(s.keys.userSimulator && !('userSimulator' in send) ? { userSimulator: s.keys.userSimulator } : {}),
  };
  setApp({ keys: keep });
  await trainer().setKeys({ ...send, hosts: keys.hosts }, s.connection.remember);
  await refreshHeldKeys();
}

/**
 * A confirming endpoint's key (issue #42 item 5), handed over once and bound to that endpoint's
 * host (nothing typed is dropped: an address that is not one keeps it in its field); remembered only when the person chose "Remember on this device" on Connect.
 */
export async function handOverConfirmKey(key: string, baseURL: string): Promise<boolean> {
  if (!bindable(baseURL)) return false;
  await trainer().setKeys({ confirm: key, hosts: { confirm: baseURL } }, useApp.getState().connection.remember);
  await refreshHeldKeys();
  return true;
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
