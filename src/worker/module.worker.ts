// An environment module's own worker (issue #30): the user's code runs here, away from the
// trainer worker's keys and store. It is loaded from its source text (a blob: module URL) and
// served through Comlink as engine/module-environment.ts's ModuleHostApi.
import * as Comlink from 'comlink';
import { moduleHost, type ModuleHostApi } from '../engine/module-environment';

let host: ModuleHostApi | null = null;

const api = {
  /** Import the module and check its contract; the problem in words when it cannot serve. */
  async load(source: string): Promise<{ ok: true } | { ok: false; error: string }> {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    try {
      const mod = (await import(/* @vite-ignore */ url)) as { default?: unknown };
      host = moduleHost(mod.default);
      return { ok: true };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    } finally {
      URL.revokeObjectURL(url);
    }
  },
  describe: () => served().describe(),
  reset: (episode: string, item: Parameters<ModuleHostApi['reset']>[1]) => served().reset(episode, item),
  call: (episode: string, name: string, args: Record<string, unknown>) => served().call(episode, name, args),
  score: (episode: string, messages: unknown[], answer: string | null) => served().score(episode, messages, answer),
  close: (episode: string) => served().close(episode),
};

function served(): ModuleHostApi {
  if (!host) throw new Error('the environment module is not loaded');
  return host;
}

export type ModuleWorkerApi = typeof api;

Comlink.expose(api);
