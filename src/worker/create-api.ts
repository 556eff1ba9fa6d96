/**
 * The worker API as a plain object (DESIGN §2): `createApi(deps)` combines the per-domain
 * handlers in ./handlers over one shared context, and is testable in Node directly or over a
 * MessageChannel. The worker entry only supplies real dependencies and calls Comlink.expose.
 * Keys live in the context's vault (memory); they reach IndexedDB only when the user asks to
 * remember them, and never any run row.
 */
import type { WorkerApi } from './api-types';
import { createApiContext, type ApiDeps } from './handlers/context';
import { connectionHandlers } from './handlers/connection';
import { mcpHandlers } from './handlers/mcp';
import { datasetsHandlers } from './handlers/datasets';
import { evaluationHandlers } from './handlers/evaluation';
import { runsHandlers } from './handlers/runs';
import { inspectionHandlers } from './handlers/inspection';
import { bundlesHandlers } from './handlers/bundles';
import { keysHandlers } from './handlers/keys';
import { reportHandlers } from './handlers/report';
import { reviewHandlers } from './handlers/review';

export type { ApiDeps };

export function createApi(deps: ApiDeps): WorkerApi {
  const c = createApiContext(deps);
  return {
    ...connectionHandlers(c),
    ...mcpHandlers(c),
    ...datasetsHandlers(c),
    ...evaluationHandlers(c),
    ...runsHandlers(c),
    ...inspectionHandlers(c),
    ...bundlesHandlers(c),
    ...reportHandlers(c),
    ...reviewHandlers(c),
    ...keysHandlers(c),
  };
}
