/**
 * The other targets that gate every candidate (issue #42 item 5, `"targets"`): each made as the
 * run's own target and each confirming one are (target.ts, llm-port.ts) — an adapter and an LLM
 * port whose target role is that target's endpoint, its key the host's `targets` key (asked with
 * `endpoints.targets` holding it alone), the optimizer, judge and user simulator the run's own.
 * The gate asks each whether a candidate is worse (engine/other-targets.ts).
 */
import type { RunConfig } from '../core/config/run-config';
import type { ConfirmTarget } from '../engine/session';
import type { RunEndpoints, RunRecord, StoredEndpoint } from '../storage/schema';
import { llmPortFor } from './llm-port';
import { fail, type HostDeps, type KeySource, type Outcome } from './ports';
import { targetOf } from './target';
import { skillMetaOf } from './train-input';

/** The host's keys with the target role answered by the gating target's key. */
function keysOf(keys: KeySource, run: RunEndpoints, gating: StoredEndpoint): KeySource {
  return {
    keyFor: (role, _endpoints, borrow) =>
      role === 'target' ? keys.keyFor('targets', { ...run, targets: [gating] }) : keys.keyFor(role, run, borrow),
  };
}

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
    const own = { ...deps, keys: keysOf(deps.keys, run.endpoints, e) };
    const endpoints = { ...run.endpoints, target: e };
    const chosen = await targetOf(own, endpoints, config, skillMetaOf(run));
    if (!chosen.ok) return fail(chosen.error.kind, `The gating target ${labels[i]}: ${chosen.error.message}`);
    const port = await llmPortFor(own, endpoints, config, 'run');
    if (!port.ok) return fail(port.error.kind, `The gating target ${labels[i]}: ${port.error.message}`);
    targets.push({ label: labels[i], llm: port.llm, target: chosen.target });
  }
  return { ok: true, targets };
}
