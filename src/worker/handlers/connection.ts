/** Checking endpoints: a test call per role and the model list. */
import type { WorkerApi } from '../api-types';
import { checkEndpoint, listModels } from '../connection-test';
import { endpointConfig, type ApiContext } from './context';

export function connectionHandlers(c: ApiContext): Pick<WorkerApi, 'testConnection' | 'listModels'> {
  const { deps } = c;
  return {
    async testConnection(input) {
      const roles = [
        checkEndpoint('target', endpointConfig(input.target, input.target.apiKey, 1, 'target'), deps.fetch),
        checkEndpoint('optimizer', endpointConfig(input.optimizer, input.optimizer.apiKey, 1, 'optimizer'), deps.fetch),
        ...(input.judge ? [checkEndpoint('judge', endpointConfig(input.judge, input.judge.apiKey, 1, 'judge'), deps.fetch)] : []),
      ];
      return Promise.all(roles);
    },

    async listModels(endpoint) {
      const r = await listModels(endpoint, deps.fetch);
      return r.ok ? { ok: true, models: r.models } : { ok: false, error: r.error };
    },
  };
}
