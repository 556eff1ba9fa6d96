/**
 * The Test connection of each other target that gates a run's candidates (issue #42 item 5): asked
 * as the run's target is (connection-check.ts), with the key the run will send it (the host's
 * `targets` key: the target's on its host, else its own). An agent CLI signs in its own way: not probed.
 */
import type { RunEndpoints } from '../storage/schema';
import { checkEndpoint, type RoleCheck } from './connection-check';
import { endpointConfig } from './llm-port';
import type { HostDeps } from './ports';

/** Each gating target's check, named by its place in the config ("targets[0]"); an agent CLI's is null. */
export async function checkGateTargets(
  deps: Pick<HostDeps, 'keys' | 'transport'>,
  endpoints: RunEndpoints,
): Promise<{ name: string; model: string; check: RoleCheck | null }[]> {
  return Promise.all(
    (endpoints.targets ?? []).map(async (e, i) => {
      const name = `targets[${i}]`;
      if (e.agentCommand) return { name, model: e.model, check: null };
      const k = await deps.keys.keyFor('targets', { ...endpoints, targets: [e] });
      if (!k.ok)
        return {
          name,
          model: e.model,
          check: { role: 'target' as const, ok: false, model: e.model, error: { kind: k.kind, message: k.message } },
        };
      return {
        name,
        model: e.model,
        check: await checkEndpoint('target', endpointConfig(e, k.key, 1, 'target'), deps.transport?.fetch),
      };
    }),
  );
}
