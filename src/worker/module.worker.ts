// An environment module's worker (issues #30, #39). It runs inside a sandboxed iframe
// (public/module-sandbox.html): an opaque origin, so no IndexedDB, Web Locks or storage of the
// app's, and a CSP that allows no network. It serves the module to the trainer over the one port
// the page gave it, as plain requests and replies (sandboxed-host.ts is the trainer's side, and
// trusts none of them). It is a classic script, built to text (vite.config.ts): Chromium does not
// start a module worker from a blob in an opaque origin.
import { moduleHost, type ModuleHostApi } from '../engine/module-environment';
import type { SandboxReply, SandboxRequest } from './sandboxed-host';

let host: ModuleHostApi | null = null;

function served(): ModuleHostApi {
  if (!host) throw new Error('the environment module is not loaded');
  return host;
}

/** Import the module from its source and check its contract. */
async function load(source: string): Promise<void> {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    const mod = (await import(/* @vite-ignore */ url)) as { default?: unknown };
    host = moduleHost(mod.default);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function answer(r: SandboxRequest): Promise<unknown> {
  const [a, b, c] = r.args as [never, never, never];
  switch (r.op) {
    case 'load':
      return load(a);
    case 'describe':
      return served().describe();
    case 'reset':
      return served().reset(a, b);
    case 'call':
      return served().call(a, b, c);
    case 'score':
      return served().score(a, b, c);
    case 'close':
      return served().close(a);
  }
}

self.addEventListener(
  'message',
  (e: MessageEvent) => {
    const port = e.ports[0];
    if (!port) return;
    port.onmessage = async ({ data }: MessageEvent<SandboxRequest>) => {
      let reply: SandboxReply;
      try {
        reply = { id: data.id, ok: true, value: await answer(data) };
      } catch (err) {
        reply = { id: data.id, ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      try {
        port.postMessage(reply);
      } catch (err) {
        // A value that cannot cross (a function, say) is the module's problem, said as one.
        port.postMessage({ id: data.id, ok: false, error: `its answer cannot be sent: ${String(err)}` });
      }
    };
  },
  { once: true },
);
