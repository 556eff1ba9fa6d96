/** Checking endpoints: a test call per role and the model list, with the keys the worker holds. */
import type { ConnectionApi } from '../api-types';
import { checkEndpoint, listModels } from '../../service/connection-check';
import { diagnoseUnreachable } from '../connection-doctor';
import { keyFor } from '../key-binding';
import type { StoredEndpoint } from '../../storage/schema';
import { endpointConfig } from '../../service/llm-port';
import type { ApiContext } from './context';
import type { EndpointConfig } from '../../llm/endpoint';

type Role = 'target' | 'optimizer' | 'judge' | 'userSimulator';

export function connectionHandlers(c: ApiContext): ConnectionApi {
  const { vault } = c;
  return {
    async testConnection(input) {
      const keys = await vault.current();
      const check = (role: Role, e: StoredEndpoint) => {
        const k = keyFor(keys, role, e.baseURL, role === 'judge' || role === 'userSimulator' ? 'optimizer' : undefined);
        if (!k.ok)
          return Promise.resolve({ role, ok: false, model: e.model, error: { kind: k.kind, message: k.message } });
        // In a page, "unreachable" hides several causes: the doctor probes and names the fix.
        const diagnose =
          typeof location !== 'undefined' ? (cfg: EndpointConfig) => diagnoseUnreachable(cfg, c.fetch) : undefined;
        return checkEndpoint(role, endpointConfig(e, k.key, 1, role), c.fetch, diagnose);
      };
      return Promise.all([
        check('target', input.target),
        check('optimizer', input.optimizer),
        ...(input.judge ? [check('judge', input.judge)] : []),
        ...(input.userSimulator ? [check('userSimulator', input.userSimulator)] : []),
      ]);
    },

    async listModels(endpoint) {
      // Many local servers list models without a key; a key held for another host is never sent.
      const k = keyFor(await vault.current(), 'target', endpoint.baseURL);
      const r = await listModels({ ...endpoint, apiKey: k.ok ? k.key : '' }, c.fetch);
      return r.ok ? { ok: true, models: r.models } : { ok: false, error: r.error };
    },
  };
}
