/**
 * The targets that confirm a run's skills after training (issue #42 item 5), each made as the
 * run's own target is (target.ts, llm-port.ts): an LLM port whose target role is that target's
 * endpoint — its key the host's `confirm` key, asked with `endpoints.confirm` holding it alone —
 * while the optimizer, judge and user simulator stay the run's own, so every target is scored alike.
 */
import type { RunConfig } from '../core/config/run-config';
import type { TransferSetup } from '../engine/session';
import type { RunEndpoints, RunRecord, StoredEndpoint } from '../storage/schema';
import { llmPortFor } from './llm-port';
import { fail, type HostDeps, type KeySource, type Outcome } from './ports';
import { targetOf } from './target';
import { skillMetaOf } from './train-input';

/** The host's keys with the target role answered by the confirming target's key. */
export function keysOf(keys: KeySource, run: RunEndpoints, confirming: StoredEndpoint): KeySource {
  return {
    keyFor: (role, _endpoints, borrow) =>
      role === 'target' ? keys.keyFor('confirm', { ...run, confirm: [confirming] }) : keys.keyFor(role, run, borrow),
  };
}

/** Each target's name in the report: its model, with its host when two share one. */
export function confirmLabels(endpoints: RunEndpoints): { trained: string; confirm: string[] } {
  const all = [endpoints.target, ...(endpoints.confirm ?? [])];
  const label = (e: StoredEndpoint) =>
    all.filter((o) => o.model === e.model).length > 1 && !e.agentCommand
      ? `${e.model} @ ${new URL(e.baseURL).host}`
      : e.model;
  return { trained: label(endpoints.target), confirm: (endpoints.confirm ?? []).map(label) };
}

/** The run's confirming targets, or none when it has none or runs no test. */
export async function transferOf(
  deps: Pick<HostDeps, 'keys' | 'transport' | 'agentCli'>,
  run: RunRecord,
  config: RunConfig,
): Promise<Outcome<{ transfer?: TransferSetup }>> {
  const confirming = run.endpoints.confirm ?? [];
  if (!confirming.length || !config.evalTest) return { ok: true };
  const labels = confirmLabels(run.endpoints);
  const confirm: TransferSetup['confirm'][number][] = [];
  for (const [i, e] of confirming.entries()) {
    const own = { ...deps, keys: keysOf(deps.keys, run.endpoints, e) };
    const endpoints = { ...run.endpoints, target: e };
    const chosen = await targetOf(own, endpoints, config, skillMetaOf(run));
    if (!chosen.ok)
      return fail(chosen.error.kind, `The confirming target ${labels.confirm[i]}: ${chosen.error.message}`);
    const port = await llmPortFor(own, endpoints, config, 'run');
    if (!port.ok) return fail(port.error.kind, `The confirming target ${labels.confirm[i]}: ${port.error.message}`);
    confirm.push({
      label: labels.confirm[i],
      llm: port.llm,
      target: chosen.target,
      ...(e.price ? { price: e.price } : {}),
    });
  }
  return { ok: true, transfer: { trained: labels.trained, confirm } };
}
