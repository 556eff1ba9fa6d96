/**
 * A finished run confirmed on one more model target (issue #42 item 5, the page's side of a
 * transfer): its starting and best skills scored on test there with the runner's scoring,
 * intervals and flip verdict (engine/run/confirm-finished.ts), the target chosen and keyed as the
 * runner's confirming targets are (confirm-targets.ts). The answers go to the run's own store, so
 * a confirm cut short and asked again pays only for what it lacks; the report goes into the
 * run's summary, and the endpoint (never its key) into the run's confirming targets.
 */
import { confirmFinished } from '../engine/run/confirm-finished';
import type { EventSink } from '../engine/events';
import { isEnvironmentError } from '../engine/environment';
import type { StageUsage, TransferReport } from '../engine/types';
import type { RunRecord, StoredEndpoint } from '../storage/schema';
import { confirmLabels, keysOf } from './confirm-targets';
import { withSessionTarget } from './evaluation';
import { fail, type Outcome, type ServiceDeps } from './ports';
import { skillMetaOf, trainInputOf } from './train-input';

export interface ConfirmOptions {
  signal: AbortSignal;
  onEvent?: EventSink;
  /** The host's hold on the run (the page's Web Lock); null when another holds it. */
  hold?: <T>(body: () => Promise<T>) => Promise<T | null>;
}

export interface Confirmed {
  transfer: TransferReport;
  /** The confirming target's name in the report. */
  label: string;
  /** Calls this confirm made (answers stored before are not asked again) and what they cost. */
  calls: number;
  costUsd: number;
}

const sameEndpoint = (a: StoredEndpoint, b: StoredEndpoint) => a.baseURL === b.baseURL && a.model === b.model;

/** Two usage tables added stage by stage. */
function addUsage(a: Record<string, StageUsage>, b: Record<string, StageUsage>): Record<string, StageUsage> {
  const out = structuredClone(a);
  for (const [stage, u] of Object.entries(b)) {
    const s = out[stage];
    if (!s) out[stage] = structuredClone(u);
    else
      for (const k of ['calls', 'promptTokens', 'completionTokens', 'reasoningTokens', 'costUsd'] as const)
        s[k] += u[k];
  }
  return out;
}

/** Why this run cannot be confirmed here, or null. */
function refusal(run: RunRecord, endpoint: StoredEndpoint): string | null {
  if (run.needsBinding)
    return 'This run was imported from a file: bind it to your own connection first (Runs → "Use my connection").';
  if (!run.state?.summary?.lift)
    return 'This run has no lift on test to confirm: it confirms once it has finished with a test (Evaluate on test on).';
  if (endpoint.agentCommand)
    return 'The page cannot start an agent CLI: confirm on one with the runner ("confirm" in its config), then import the run.';
  if (!endpoint.model.trim()) return 'Name the model that confirms the skills.';
  if (sameEndpoint(endpoint, run.endpoints.target))
    return 'That is the target the run trained on: its lift is the run’s own. Choose another model or endpoint.';
  return null;
}

export async function confirmRun(
  deps: ServiceDeps,
  runId: string,
  endpoint: StoredEndpoint,
  o: ConfirmOptions,
): Promise<Outcome<Confirmed>> {
  const run = await deps.records.getRun(runId);
  if (!run) return fail('not_found', `That run is not in ${deps.place}.`);
  const refused = refusal(run, endpoint);
  if (refused) return fail('invalid_input', refused);
  const d = await deps.records.getDataset(run.datasetId);
  if (!d) return fail('not_found', `The dataset of this run is no longer in ${deps.place}.`);
  const endpoints = { ...run.endpoints, target: endpoint, confirm: [endpoint] };
  const labels = confirmLabels({ ...run.endpoints, confirm: [endpoint] });
  const label = labels.confirm[0];
  const input = trainInputOf(run, d);
  const keyed = { ...deps, keys: keysOf(deps.keys, run.endpoints, endpoint) };
  const body = async (): Promise<Outcome<Confirmed>> => {
    const state = run.state!;
    const session = {
      ...input,
      packageFiles: input.packageFiles && [...input.packageFiles],
      skill: state.gate.bestSkill,
      endpoints,
      environment: run.environment,
      skillMeta: skillMetaOf(run),
    };
    let ran;
    try {
      ran = await withSessionTarget(keyed, session, o, (engine) =>
        confirmFinished(
          { ...input, state, trained: labels.trained, label },
          // The run's own store: answers asked before are found again by their cache keys.
          { ...engine, store: deps.records.runStore(runId) },
        ),
      );
    } catch (e) {
      if (!isEnvironmentError(e)) throw e;
      return fail('environment', `${e.message}. Nothing was run.`);
    }
    if (!ran.ok) return ran;
    const r = ran.value;
    if (!r.ok) return fail(r.kind, r.reason);
    // Written over the record as it is now; the confirm's calls join the run's usage and cost.
    const fresh = (await deps.records.getRun(runId)) ?? run;
    const s = fresh.state!;
    const summary = s.summary!;
    const confirm = [...(fresh.endpoints.confirm ?? []).filter((e) => !sameEndpoint(e, endpoint)), endpoint];
    await deps.records.putRun({
      ...fresh,
      endpoints: { ...fresh.endpoints, confirm },
      state: {
        ...s,
        summary: {
          ...summary,
          transfer: r.transfer,
          usage: addUsage(summary.usage, r.usage),
          totalCostUsd: summary.totalCostUsd + r.costUsd,
        },
      },
      updatedAt: deps.now(),
    });
    return { ok: true, transfer: r.transfer, label, calls: r.calls, costUsd: r.costUsd };
  };
  const outcome = o.hold ? await o.hold(body) : await body();
  if (!outcome) return fail('locked', 'This run is open in another tab, which is running it. It is read-only here.');
  return outcome;
}
