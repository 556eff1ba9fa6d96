// The page's handle on the worker. The UI imports the API's type only; the worker bundle
// (engine, SDK, idb) never enters the page's own chunk.
import * as Comlink from 'comlink';
import type { WorkerApi } from '../worker/api-types';
import { moduleSandboxes } from './module-sandbox';

let remote: Comlink.Remote<WorkerApi> | null = null;

export function trainer(): Comlink.Remote<WorkerApi> {
  if (!remote) {
    const worker = new Worker(new URL('../worker/trainer.worker.ts', import.meta.url), {
      type: 'module',
      name: 'skillwright-trainer',
    });
    remote = Comlink.wrap<WorkerApi>(worker);
    // Environment modules run only in sandboxes the page opens (an iframe is the page's to make).
    void remote.useModuleSandboxes(Comlink.proxy(moduleSandboxes()));
  }
  return remote;
}

/** Talk to this API instead of starting the worker (Node tests connect one over a MessageChannel). */
export function connectTrainer(api: Comlink.Remote<WorkerApi>): void {
  remote = api;
}

/** Wrap an event callback so the worker can call it across the boundary. */
export const proxyCallback = <T extends (...args: never[]) => unknown>(fn: T) => Comlink.proxy(fn);
