/**
 * Keys are bound to the origin they were typed for (issue #9 item 1): the worker, the only key
 * holder, sends a key only to that origin. A run imported from a file, or an old run made
 * against another provider, therefore never receives the user's current key.
 */
import type { Secrets } from './api-types';
import { DEMO_BASE_URL, DEMO_KEY } from '../core/simulators/demo-world';

const ROLES = ['target', 'optimizer', 'judge', 'userSimulator', 'confirm'] as const;
type KeyRole = (typeof ROLES)[number];

/** scheme://host:port of a base URL; null when it does not parse as an http(s) URL (it then matches nothing). */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * Held keys updated with newly given ones; each new key takes the origin given with it. A key
 * given without a parsable origin is not held at all (issue #20 item 11): an unbound key would
 * go to any host.
 */
export function withKeys(held: Secrets, given: Secrets | null | undefined): Secrets {
  const out: Secrets = { ...held, hosts: { ...held.hosts } };
  // Keys held from before binding existed, or bound to nothing: dropped.
  for (const role of ROLES)
    if (out[role] && !originOf(out.hosts?.[role] ?? '')) {
      delete out[role];
      delete out.hosts![role];
    }
  if (!given) return out;
  // An MCP server's token is held under its URL, which binds it to that URL's origin.
  for (const [url, token] of Object.entries(given.mcp ?? {}))
    if (originOf(url)) out.mcp = token ? { ...out.mcp, [url]: token } : withoutKey(out.mcp, url);
  for (const role of ROLES) {
    const key = given[role];
    if (!key) continue;
    const host = originOf(given.hosts?.[role] ?? '');
    if (!host) continue;
    out[role] = key;
    out.hosts![role] = host;
  }
  return out;
}

const withoutKey = (m: Record<string, string> | undefined, k: string) =>
  Object.fromEntries(Object.entries(m ?? {}).filter(([x]) => x !== k));

/** The token held for an MCP server, sent only to the origin of the URL it was given for (issue #31). */
export function mcpTokenFor(k: Secrets, url: string): string | undefined {
  const origin = originOf(url);
  const entry = Object.entries(k.mcp ?? {}).find(([u]) => u === url);
  return entry && origin && originOf(entry[0]) === origin ? entry[1] : undefined;
}

/** The demo endpoint's own key, supplied by the worker for that origin only: no held key is touched. */
const DEMO_ORIGIN = originOf(DEMO_BASE_URL)!;

export type KeyFor = { ok: true; key: string } | { ok: false; kind: 'missing_key' | 'host_mismatch'; message: string };

/**
 * The key for a call by `role` to `baseURL`, borrowing another role's key when `borrow` says
 * so (a judge without its own key uses the optimizer's). A key bound to another origin is refused.
 */
export function keyFor(k: Secrets, role: KeyRole, baseURL: string, borrow?: KeyRole): KeyFor {
  const target = originOf(baseURL);
  if (target === DEMO_ORIGIN) return { ok: true, key: DEMO_KEY };
  const from: KeyRole = k[role] ? role : (borrow ?? role);
  const key = k[from];
  if (!key)
    return {
      ok: false,
      kind: 'missing_key',
      message: 'Enter the API keys again (Connect): they are kept only in memory unless you chose to remember them.',
    };
  const bound = k.hosts?.[from];
  if (!target)
    return {
      ok: false,
      kind: 'host_mismatch',
      message: `The ${role} base URL "${baseURL}" is not an http(s) address: no key is sent to it.`,
    };
  // A key bound to nothing matches nothing.
  if (!bound || bound !== target) {
    return {
      ok: false,
      kind: 'host_mismatch',
      message: bound
        ? `This run calls ${target} for the ${role}, but your ${from} key was entered for ${bound}. Keys are only sent to the host they were entered for: enter a key for ${target} on Connect, or bind the run to your current connection.`
        : `Your ${from} key was entered without a base URL, so it is sent nowhere: enter the base URL on Connect, then the key again.`,
    };
  }
  return { ok: true, key };
}

/**
 * The key of a model target that confirms a run's skills (issue #42 item 5): the one typed for
 * it, else the target's — each only when it was typed for that endpoint's host.
 */
export function confirmKeyFor(k: Secrets, baseURL: string): KeyFor {
  const own = keyFor(k, 'confirm', baseURL);
  if (own.ok) return own;
  const target = keyFor(k, 'target', baseURL);
  if (target.ok) return target;
  const host = originOf(baseURL);
  if (!host) return own;
  return {
    ok: false,
    kind: own.kind,
    message: `No key of yours was entered for ${host}: type the key for that endpoint beside it (Confirm on another model). Keys are only sent to the host they were entered for.`,
  };
}
