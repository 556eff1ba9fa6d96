/**
 * The page's environment module (issue #30): the user's module runs in a worker of its own
 * (module.worker.ts), started by the trainer worker, holding no key and no store. Every request
 * has a time limit; a module that hangs is terminated (its worker and state go; the run pauses
 * and a resume starts a fresh one, rebuilding each open trajectory's state from its calls).
 */
import * as Comlink from 'comlink';
import type { ToolEnvironment } from '../engine/environment';
import { EnvironmentError } from '../engine/environment';
import { remoteEnvironment, type ModuleHostApi } from '../engine/module-environment';
import type { ModuleWorkerApi } from './module.worker';

/** A module as a run keeps it: its source and the name and hash it was opened with. */
export interface StoredModule {
  name: string;
  fileName: string;
  source: string;
  hash: string;
}

function startWorker(): { remote: Comlink.Remote<ModuleWorkerApi>; worker: Worker } {
  const worker = new Worker(new URL('./module.worker.ts', import.meta.url), {
    type: 'module',
    name: 'environment-module',
  });
  return { remote: Comlink.wrap<ModuleWorkerApi>(worker), worker };
}

/** Load a module in a fresh worker and say what it offers, or what is wrong with it (the Data screen). */
export async function inspectModule(
  source: string,
  timeoutMs = 10_000,
): Promise<
  | { ok: true; name: string; tools: { name: string; description?: string }[]; scores: boolean }
  | { ok: false; error: string }
> {
  const { remote, worker } = startWorker();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<{ ok: false; error: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `it did not load within ${timeoutMs / 1000} s` }), timeoutMs);
  });
  try {
    const loaded = await Promise.race([remote.load(source), late]);
    if (!loaded.ok) return { ok: false, error: loaded.error };
    const d = await Promise.race([remote.describe(), late.then((l) => Promise.reject(new Error(l.error)))]);
    return {
      ok: true,
      name: d.name,
      tools: d.tools.map((t) => ({ name: t.name, description: t.description })),
      scores: d.scores,
    };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
    worker.terminate();
  }
}

/** A run's module as the engine's environment, in a worker started on first use. */
export function pageModuleEnvironment(m: StoredModule, timeoutMs = 60_000): ToolEnvironment {
  let started: Promise<ModuleHostApi> | null = null;
  let worker: Worker | null = null;
  const stop = () => {
    worker?.terminate();
    worker = null;
    started = null;
  };
  const host = () =>
    (started ??= (async () => {
      const w = startWorker();
      worker = w.worker;
      const loaded = await w.remote.load(m.source);
      if (!loaded.ok) throw new EnvironmentError(`it failed to load: ${loaded.error}`);
      return w.remote as unknown as ModuleHostApi;
    })());
  return remoteEnvironment(host, {
    label: `environment module ${m.fileName}`,
    identity: `module:${m.hash}`,
    timeoutMs,
    onFailure: () => stop(),
    dispose: () => stop(),
  });
}
