// Node warns when more than 10 listeners wait on one AbortSignal; every in-flight SDK call adds
// one to the run's signal. Browsers have no such limit, so the tests lift Node's.
// Test files share a process (isolate: false), so this runs once per file: patch only once.
import { setMaxListeners } from 'node:events';

const PATCHED = Symbol.for('skillwright.test.abortListeners');
const Original = globalThis.AbortController as typeof AbortController & { [PATCHED]?: true };
if (!Original[PATCHED]) {
  globalThis.AbortController = class extends Original {
    static readonly [PATCHED] = true;
    constructor() {
      super();
      setMaxListeners(10_000, this.signal);
    }
  } as typeof AbortController;
}
