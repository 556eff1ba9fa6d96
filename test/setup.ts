// Node warns when more than 10 listeners wait on one AbortSignal; every in-flight SDK call adds
// one to the run's signal. Browsers have no such limit, so the tests lift Node's.
import { setMaxListeners } from 'node:events';

const Original = globalThis.AbortController;
globalThis.AbortController = class extends Original {
  constructor() {
    super();
    setMaxListeners(10_000, this.signal);
  }
} as typeof AbortController;
