/**
 * The page's side of environment modules (issue #39): each module gets a sandboxed iframe of its
 * own — `sandbox="allow-scripts"` without `allow-same-origin`, so an opaque origin: none of this
 * app's IndexedDB (remembered keys, runs), storage or Web Locks, and module-sandbox.html's CSP
 * gives it no network. The iframe starts the trainer's host script as a worker and hands it the
 * port the trainer talks on; the page only frames it. Closing removes the iframe and its worker.
 */
import * as Comlink from 'comlink';
import type { ModuleSandboxes } from '../worker/api-types';

/** Served next to index.html (public/): relative, like every asset of the static page. */
const SANDBOX_PAGE = 'module-sandbox.html';
const READY_MS = 15_000;

/** Resolve once the framed page says it is ready (its script ran, in an opaque origin). */
function ready(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
    };
    const onMessage = (e: MessageEvent) => {
      if (e.source !== frame.contentWindow || e.data !== 'module-sandbox-ready') return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${SANDBOX_PAGE} did not start; it must be served next to index.html`));
    }, READY_MS);
    addEventListener('message', onMessage);
  });
}

export function moduleSandboxes(): ModuleSandboxes {
  const frames = new Map<number, HTMLIFrameElement>();
  let next = 0;
  return {
    async open(hostScript) {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.title = 'Environment module sandbox';
      frame.hidden = true;
      frame.src = new URL(SANDBOX_PAGE, document.baseURI).href;
      const started = ready(frame);
      document.body.append(frame);
      try {
        await started;
      } catch (e) {
        frame.remove();
        throw e;
      }
      const { port1, port2 } = new MessageChannel();
      frame.contentWindow!.postMessage({ host: hostScript }, '*', [port2]);
      const id = ++next;
      frames.set(id, frame);
      return Comlink.transfer({ id, port: port1 }, [port1]);
    },
    async close(id) {
      frames.get(id)?.remove();
      frames.delete(id);
    },
  };
}
