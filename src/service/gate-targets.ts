/**
 * The other targets that gate every candidate (issue #42 item 5, `"targets"`): each made as a
 * confirming target is (confirm-targets.ts), its key the host's `targets` key. The gate asks each
 * whether the candidate is worse (engine/other-targets.ts).
 */
import type { RunConfig } from '../core/config/run-config';
import type { ConfirmTarget } from '../engine/session';
import type { RunEndpoints, RunRecord, StoredEndpoint } from '../storage/schema';
import { otherTargetOf } from './confirm-targets';
import type { HostDeps, Outcome } from './ports';

/** Each gating target's name: its model, with its host when another target of the run has that model too. */
export function gateTargetLabels(endpoints: RunEndpoints): string[] {
  const all = [endpoints.target, ...(endpoints.targets ?? [])];
  const label = (e: StoredEndpoint) =>
    all.filter((o) => o.model === e.model).length > 1 && !e.agentCommand
      ? `${e.model} @ ${new URL(e.baseURL).host}`
      : e.model;
  return (endpoints.targets ?? []).map(label);
}

/** The run's gating targets, in order; none when it has none or gates nothing. */
export async function gateTargetsOf(
  deps: Pick<HostDeps, 'keys' | 'transport' | 'agentCli'>,
  run: RunRecord,
  config: RunConfig,
): Promise<Outcome<{ targets: ConfirmTarget[] }>> {
  const gating = run.endpoints.targets ?? [];
  if (!gating.length || !config.useGate) return { ok: true, targets: [] };
  const labels = gateTargetLabels(run.endpoints);
  const targets: ConfirmTarget[] = [];
  for (const [i, e] of gating.entries()) {
    const made = await otherTargetOf(deps, run, config, e, { list: 'targets', label: labels[i], what: 'gating' });
    if (!made.ok) return made;
    targets.push(made.target);
  }
  return { ok: true, targets };
}
