/** Keys: held by the worker only, remembered on request, bound to the hosts they were typed for. */
import { getRememberedKeys } from '../../storage/settings-repo';
import { getRun } from '../../storage/runs-repo';
import type { McpSettings } from '../../core/agent/mcp-servers';
import type { KeysApi } from '../api-types';
import { originOf } from '../key-binding';
import { fail, type ApiContext } from './context';

/**
 * The person's own MCP settings for the servers a run calls: their entries for those URLs (names,
 * headers, ticked tools), with their time limit and concurrency — or which servers they lack.
 */
export function ownMcpServers(
  stored: McpSettings,
  own: McpSettings | null,
): { ok: true; settings: McpSettings } | { ok: false; error: string } {
  const mine = (url: string) => own?.servers.find((s) => s.url === url);
  const missing = stored.servers.filter((s) => !mine(s.url)).map((s) => s.url);
  if (missing.length)
    return {
      ok: false,
      error:
        `This run's agent calls MCP servers your settings do not name (${missing.join(', ')}). ` +
        'Add each on Data → MCP servers — test it and tick the tools the agent may use — then bind the run.',
    };
  return { ok: true, settings: { ...own!, servers: stored.servers.map((s) => mine(s.url)!) } };
}

export function keysHandlers(c: ApiContext): KeysApi {
  const { dbp, active, vault } = c;
  return {
    async setKeys(newKeys, remember) {
      await vault.add(newKeys, remember);
    },

    async bindRun(runId, endpoints, prices, mcp) {
      if (active.has(runId)) return fail('already_running', 'This run is running.');
      // Its MCP servers become the person's own entries for those URLs (issue #39 H3).
      const stored = (await getRun(await dbp, runId))?.environment?.mcp;
      const own = stored ? ownMcpServers(stored, mcp ?? null) : null;
      if (own && !own.ok) return fail('mcp_not_yours', own.error);
      const r = await (await c.service).bindRun(runId, endpoints, prices, own ? { mcp: own.settings } : {});
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
