/**
 * Keys are bound to the origin they were typed for (issue #9 item 1): the worker, the only key
 * holder, sends a key only to that origin. A run imported from a file, or an old run made
 * against another provider, therefore never receives the user's current key.
 */
import type { Secrets } from './api-types';

const ROLES = ['target', 'optimizer', 'judge'] as const;
type KeyRole = (typeof ROLES)[number];

/** scheme://host:port of a base URL (the URL itself when it does not parse). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Held keys updated with newly given ones; each new key takes the origin given with it. */
export function withKeys(held: Secrets, given: Secrets | null | undefined): Secrets {
  if (!given) return held;
  const out: Secrets = { ...held, hosts: { ...held.hosts } };
  for (const role of ROLES) {
    const key = given[role];
    if (!key) continue;
    out[role] = key;
    const host = given.hosts?.[role];
    if (host) out.hosts![role] = originOf(host);
    else delete out.hosts![role];
  }
  return out;
}

export type KeyFor = { ok: true; key: string } | { ok: false; kind: 'missing_key' | 'host_mismatch'; message: string };

/**
 * The key for a call by `role` to `baseURL`, borrowing another role's key when `borrow` says
 * so (a judge without its own key uses the optimizer's). A key bound to another origin is refused.
 */
export function keyFor(k: Secrets, role: KeyRole, baseURL: string, borrow?: KeyRole): KeyFor {
  const from: KeyRole = k[role] ? role : (borrow ?? role);
  const key = k[from];
  if (!key) return { ok: false, kind: 'missing_key', message: 'Enter the API keys again (Connect): they are kept only in memory unless you chose to remember them.' };
  const bound = k.hosts?.[from];
  const target = originOf(baseURL);
  if (bound && bound !== target) {
    return {
      ok: false,
      kind: 'host_mismatch',
      message: `This run calls ${target} for the ${role}, but your ${from} key was entered for ${bound}. Keys are only sent to the host they were entered for: enter a key for ${target} on Connect, or bind the run to your current connection.`,
    };
  }
  return { ok: true, key };
}
