/**
 * The page's environment module (issues #30, #39): the module runs in a sandbox the page opens
 * for it (api-types.ts `ModuleSandboxes`: a sandboxed iframe, an opaque origin with no storage,
 * locks or network, hosting module.worker.ts), reached over one MessagePort and trusted with
 * nothing (sandboxed-host.ts). Every request has a time limit; a module that hangs loses its
 * sandbox (its iframe, worker and state go; the run pauses and a resume starts a fresh one,
 * rebuilding each open trajectory's state from its calls).
 */
import type { ToolEnvironment } from '../engine/environment';
import { EnvironmentError } from '../engine/environment';
import { remoteEnvironment } from '../engine/module-environment';
import type { ModuleSandboxes } from './api-types';
import { sandboxedHost, type SandboxedHost } from './sandboxed-host';

/** A module as a run keeps it: its source and the name and hash it was opened with. */
export interface StoredModule {
  name: string;
  fileName: string;
  source: string;
  hash: string;
}

/** The page's sandboxes, when the page has handed them over (Node tests have none). */
export type SandboxSource = () => ModuleSandboxes | undefined;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A fresh sandbox with the host script running in it, and how to take it down. */
async function openSandbox(sandboxes: SandboxSource): Promise<{ host: SandboxedHost; close: () => void }> {
  const s = sandboxes();
  if (!s) throw new EnvironmentError('environment modules run only in the page, which sandboxes them');
  // The host script is built to text (vite.config.ts) and loads only when a module is used.
  const { default: hostScript } = await import('virtual:module-host-script');
  let opened;
  try {
    opened = await s.open(hostScript);
  } catch (e) {
    throw new EnvironmentError(`its sandbox did not open: ${message(e)}`);
  }
  const { id, port } = opened;
  return {
    host: sandboxedHost(port),
    close: () => {
      port.close();
      void s.close(id);
    },
  };
}

/** Load a module in a fresh sandbox and say what it offers, or what is wrong with it (the Data screen). */
export async function inspectModule(
  source: string,
  sandboxes: SandboxSource,
  timeoutMs = 10_000,
): Promise<
  | { ok: true; name: string; tools: { name: string; description?: string }[]; scores: boolean }
  | { ok: false; error: string }
> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not load within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  let close = () => {};
  try {
    const described = (async () => {
      const s = await openSandbox(sandboxes);
      close = s.close;
      await s.host.load(source);
      return s.host.describe();
    })();
    described.catch(() => undefined); // settled after the time limit: its sandbox is closed below
    const d = await Promise.race([described, late]);
    return {
      ok: true,
      name: d.name,
      tools: d.tools.map((t) => ({ name: t.name, description: t.description })),
      scores: d.scores,
    };
  } catch (e) {
    return { ok: false, error: message(e) };
  } finally {
    clearTimeout(timer);
    close();
  }
}

/** A run's module as the engine's environment, in a sandbox opened on first use. */
export function pageModuleEnvironment(m: StoredModule, sandboxes: SandboxSource, timeoutMs = 60_000): ToolEnvironment {
  let started: Promise<SandboxedHost> | null = null;
  let close: (() => void) | null = null;
  let generation = 0;
  const stop = () => {
    generation++;
    close?.();
    close = null;
    started = null;
  };
  const start = async (mine: number) => {
    const s = await openSandbox(sandboxes);
    // Stopped while it opened (a time limit ran out): nothing may keep this sandbox.
    if (mine !== generation) {
      s.close();
      throw new EnvironmentError('its sandbox was closed');
    }
    close = s.close;
    try {
      await s.host.load(m.source);
    } catch (e) {
      throw new EnvironmentError(`loading it threw: ${message(e)}`);
    }
    return s.host;
  };
  const host = () => (started ??= start(generation));
  return remoteEnvironment(host, {
    label: `environment module ${m.fileName}`,
    identity: `module:${m.hash}`,
    timeoutMs,
    onFailure: () => stop(),
    dispose: () => stop(),
  });
}
