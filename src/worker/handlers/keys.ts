/** Keys: held by the worker only, remembered on request, bound to the hosts they were typed for. */
import { getRememberedKeys } from '../../storage/settings-repo';
import type { KeysApi } from '../api-types';
import { originOf } from '../key-binding';
import { fail, type ApiContext } from './context';

export function keysHandlers(c: ApiContext): KeysApi {
  const { dbp, active, vault } = c;
  return {
    async setKeys(newKeys, remember) {
      await vault.add(newKeys, remember);
    },

    async bindRun(runId, endpoints, prices) {
      if (active.has(runId)) return fail('already_running', 'This run is running.');
      const r = await (await c.service).bindRun(runId, endpoints, prices);
      if (!r.ok) return r;
      const hosts = [
        ...new Set(
          [endpoints.target, endpoints.optimizer, endpoints.judge, endpoints.userSimulator]
            .filter((e) => e !== undefined)
            .map((e) => originOf(e.baseURL) ?? e.baseURL),
        ),
      ];
      return { ok: true, hosts };
    },

    async keyStatus() {
      const keys = await vault.current();
      const remembered = await getRememberedKeys(await dbp);
      return {
        target: Boolean(keys.target),
        optimizer: Boolean(keys.optimizer),
        judge: Boolean(keys.judge),
        userSimulator: Boolean(keys.userSimulator),
        remembered: Boolean(remembered.target || remembered.optimizer),
      };
    },

    async forgetKeys(opts) {
      await vault.forget(opts?.keepSession ?? false);
    },
  };
}
