/**
 * A run's life in the service: created (validated, its record built here and nowhere else),
 * started or resumed (with a raised budget, when the person raised it), and bound to a
 * person's own endpoints. A host adds only what it needs around them: the page a lock per run
 * and coalesced events, the runner its folder lock and progress line.
 */
import { validateAgainstSplits, validateRunConfig, type RunConfig } from '../core/config/run-config';
import type { SkillMeta } from '../core/skill/skill-file';
import type { PackageShell } from '../core/skill/package-zip';
import type { TriggerQuery } from '../core/dataset/trigger-queries';
import type { RunEnvironmentSpec } from '../core/agent/environment-spec';
import { readMcpSettings, type McpSettings } from '../core/agent/mcp-servers';
import type { EventSink } from '../engine/events';
import type { Prices } from '../engine/meter';
import { buildPromptSet } from '../engine/prompts';
import { runTraining, type TrainOutcome } from '../engine/run/trainer';
import { isEnvironmentError } from '../engine/environment';
import type { RunEndpoints, RunRecord } from '../storage/schema';
import { skillMetaOf, trainInputOf } from './train-input';
import { llmPortFor } from './llm-port';
import { environmentOf, targetOf, workspaceRefusal } from './target';
import { transferOf } from './confirm-targets';
import { gateTargetsOf } from './gate-targets';
import { fail, type Outcome, type ServiceDeps } from './ports';

/** A run that completed or was cancelled goes on no more: it is started again from one of its versions. */
export const hasEnded = (status: RunRecord['status']): boolean => status === 'completed' || status === 'cancelled';

export interface CreateRunInput {
  name?: string;
  datasetId: string;
  config: RunConfig;
  initialSkill: string;
  endpoints: RunEndpoints;
  prices?: Prices;
  parent?: { runId: string; hash: string; label?: string };
  /** Agent Skills name and description, kept with the run for its SKILL.md export. */
  skillMeta?: SkillMeta;
  /** A skill package's frontmatter and untrained files, kept with the run for its .zip export. */
  skillPackage?: PackageShell;
  /** Trigger queries for the activation track (config.activationTrack). */
  triggerQueries?: TriggerQuery[];
  /** The agents' environment module (issue #30) or MCP servers (issue #31), kept with the run. */
  environment?: RunEnvironmentSpec;
}

export interface StartOptions {
  /** A raised budget cap, written into the run (and its state) before it goes on. */
  budget?: RunConfig['budget'];
  signal: AbortSignal;
  onEvent?: EventSink;
  /**
   * The host's hold on the run while it trains (the page's Web Lock); it runs `body` only when it
   * holds the run, else answers null. Without one the caller already holds it (the runner's folder lock).
   */
  hold?: (body: () => Promise<TrainOutcome>) => Promise<TrainOutcome | null>;
}

/** The run's settings, checked against its dataset and the prompt overrides it names. */
function problemsOf(deps: ServiceDeps, config: RunConfig, sizes: Record<'train' | 'val' | 'test', number>) {
  const problems = [...validateRunConfig(config), ...validateAgainstSplits(config, sizes)];
  if (problems.length) return problems.map((p) => p.message).join('; ');
  try {
    buildPromptSet(deps.promptFiles, config.promptOverrides);
  } catch (e) {
    return `A prompt override is not usable: ${e instanceof Error ? e.message : String(e)}`;
  }
  return null;
}

export async function createRun(deps: ServiceDeps, input: CreateRunInput): Promise<Outcome<{ runId: string }>> {
  const d = await deps.records.getDataset(input.datasetId);
  if (!d) return fail('not_found', `That dataset is not in ${deps.place}.`);
  const sizes = { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length };
  const problem = problemsOf(deps, input.config, sizes);
  if (problem) return fail('invalid_config', problem);
  if (input.config.activationTrack && !input.triggerQueries?.length)
    return fail(
      'invalid_config',
      'The activation track trains the description on trigger queries, and none were given: add them (the Skill screen, or "triggers" in the runner\'s config), or turn the track off.',
    );
  if (input.environment?.module && input.environment.mcp)
    return fail(
      'invalid_config',
      'A run takes its tools from an environment module or from MCP servers, not both: remove one on Data.',
    );
  if (input.environment?.mcp) {
    const mcp = readMcpSettings(input.environment.mcp).problems;
    if (mcp.length) return fail('invalid_config', `MCP servers: ${mcp.join('; ')}.`);
  }
  const t = deps.now();
  const run: RunRecord = {
    id: deps.newId(),
    name: input.name?.trim() || `${d.name} · ${input.endpoints.target.model}`,
    datasetId: d.id,
    createdAt: t,
    updatedAt: t,
    status: 'idle',
    config: input.config,
    initialSkill: input.initialSkill,
    endpoints: input.endpoints,
    prices: input.prices ?? {},
    ...(input.parent ? { parent: input.parent } : {}),
    ...(input.skillMeta ? { skillMeta: input.skillMeta } : {}),
    ...(input.skillPackage ? { skillPackage: input.skillPackage } : {}),
    ...(input.triggerQueries?.length ? { triggerQueries: input.triggerQueries } : {}),
    ...(input.environment?.module || input.environment?.mcp ? { environment: input.environment } : {}),
  };
  await deps.records.putRun(run);
  return { ok: true, runId: run.id };
}

/** Start a run, or resume it from its last checkpoint; returns how the session ended. */
export async function startRun(deps: ServiceDeps, runId: string, o: StartOptions): Promise<Outcome<TrainOutcome>> {
  const run = await deps.records.getRun(runId);
  if (!run) return fail('not_found', `That run is not in ${deps.place}.`);
  if (hasEnded(run.status))
    return fail('finished', `This run is ${run.status}; start a new run from one of its skill versions instead.`);
  if (run.needsBinding)
    return fail(
      'needs_binding',
      'This run was imported from a file: it is read-only until you bind it to your own connection ' +
        '(Runs → "Use my connection"). Its endpoints came with the file, and your keys are never sent to them.',
    );
  const raised = o.budget && JSON.stringify(o.budget) !== JSON.stringify(run.config.budget) ? o.budget : null;
  const config = raised ? { ...run.config, budget: raised } : run.config;
  const chosen = await targetOf(deps, run.endpoints, config, skillMetaOf(run));
  if (!chosen.ok) return chosen;
  const port = await llmPortFor(deps, run.endpoints, config, 'run');
  if (!port.ok) return port;
  const confirming = await transferOf(deps, run, config);
  if (!confirming.ok) return confirming;
  const gating = await gateTargetsOf(deps, run, config);
  if (!gating.ok) return gating;
  const d = await deps.records.getDataset(run.datasetId);
  if (!d) return fail('not_found', `The dataset of this run is no longer in ${deps.place}.`);
  const refused = workspaceRefusal(d.items, chosen.target);
  if (refused) return fail('invalid_config', refused);
  const body = async () => {
    // A raised budget is written only while the run is held, over the record as it is now: a
    // stale tab would otherwise overwrite a running run's record (issue #20 item 6).
    if (raised) {
      const fresh = (await deps.records.getRun(runId)) ?? run;
      await deps.records.putRun({ ...fresh, config, state: fresh.state && { ...fresh.state, config } });
    }
    // The environment lives for this session only: a resume makes a fresh one (a module's worker,
    // connections), and the engine rebuilds each open trajectory's state from its checkpoint. One
    // that cannot be had (an MCP server down, its token refused, a module that does not load)
    // pauses, as one that fails mid-run does.
    let environment;
    try {
      environment = await environmentOf(deps.environment, run.environment);
      await environment?.tools();
    } catch (e) {
      environment?.dispose?.();
      if (!isEnvironmentError(e)) throw e;
      const what = environment ? `${environment.label} failed: ` : '';
      return {
        status: 'paused' as const,
        reasonKind: 'environment',
        reason: `${what}${e.message}. Nothing was run; resume when it works.`,
      };
    }
    try {
      return await runTraining(trainInputOf(run, d, config), {
        llm: port.llm,
        store: deps.records.runStore(runId),
        prompts: buildPromptSet(deps.promptFiles, config.promptOverrides),
        signal: o.signal,
        onEvent: o.onEvent,
        now: deps.now,
        environment,
        target: chosen.target,
        ...(confirming.transfer ? { transfer: confirming.transfer } : {}),
        ...(gating.targets.length ? { gateTargets: gating.targets } : {}),
      });
    } finally {
      environment?.dispose?.();
    }
  };
  const outcome = o.hold ? await o.hold(body) : await body();
  if (!outcome) return fail('locked', 'This run is open in another tab, which is running it. It is read-only here.');
  return { ok: true, ...outcome };
}

/**
 * Bind a run to endpoints and prices of the person's own (an imported run, or a run moved to new
 * hosts) — and, when given, to the person's own MCP servers in place of the run's (issue #39 H3:
 * their names choose which token goes where, their `tools` lists what the agent may call; the
 * caller has checked they are the same servers).
 */
export async function bindRun(
  deps: ServiceDeps,
  runId: string,
  endpoints: RunEndpoints,
  prices: Prices,
  own: { mcp?: McpSettings } = {},
): Promise<Outcome<{ run: RunRecord }>> {
  const stored = await deps.records.getRun(runId);
  if (!stored) return fail('not_found', `That run is not in ${deps.place}.`);
  // Bound, it is like a run made here: no flag left. The user's prices come with the user's
  // connection: a bundle's zero prices must not turn the cap off.
  const gating = stored.endpoints.targets?.length ?? 0;
  if (gating && !endpoints.targets?.length)
    return fail(
      'invalid_config',
      `This run's gate asked ${gating} other target${gating === 1 ? '' : 's'} too (the runner's "targets"), which these endpoints do not name: continued here, its later candidates would be gated on one target alone. Continue it with the runner (skillwright resume --bundle <file> --config <a config with "targets">).`,
    );
  const { needsBinding: _bound, ...run } = stored;
  const environment = run.environment?.mcp && own.mcp ? { ...run.environment, mcp: own.mcp } : run.environment;
  const bound = { ...run, endpoints, prices, ...(environment ? { environment } : {}), updatedAt: deps.now() };
  await deps.records.putRun(bound);
  return { ok: true, run: bound };
}
