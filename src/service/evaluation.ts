/**
 * Use cases outside a run: one skill evaluated on a split, a person's feedback turned into a
 * candidate, and the cost estimate of a planned run. The host finds the data (the page's stored
 * dataset, the runner's file) and shows the answer; the LLM port and prompts are built here.
 */
import type { Effort } from '../core/config/capabilities';
import type { DatasetItem, SplitName } from '../core/dataset/dataset-types';
import type { RunConfig } from '../core/config/run-config';
import { rolloutTemplateOf } from '../engine/context';
import { estimateCost as estimate, type CostEstimate } from '../engine/cost-estimate';
import { evaluateSkill as evaluate, type SessionDeps } from '../engine/run/evaluate';
import type { EventSink } from '../engine/events';
import { improveWithFeedback as improve } from '../engine/feedback';
import type { Prices } from '../engine/meter';
import { buildPromptSet } from '../engine/prompts';
import type { RolloutRow, RunDataset } from '../engine/types';
import type { RunStore } from '../engine/ports';
import { MemoryRunStore } from '../storage/memory-store';
import type { RunEndpoints, StoredEndpoint } from '../storage/schema';
import { llmPortFor } from './llm-port';
import { environmentOf, hasEnvironment, isAgentTarget, targetOf, workspaceRefusal } from './target';
import { splitTriggerQueries, type TriggerQuery } from '../core/dataset/trigger-queries';
import { fail, type HostDeps, type Outcome } from './ports';
import { isAgenticSetup, type RunEnvironmentSpec } from '../core/agent/environment-spec';
import type { PackageFile } from '../core/skill/skill-package';
import type { SkillMeta } from '../core/skill/skill-file';

export interface EvaluateInput {
  skill: string;
  split: SplitName;
  /** Only the first n items of the split (0 = all). */
  limit: number;
  config: RunConfig;
  endpoints: RunEndpoints;
  prices?: Prices;
  data: RunDataset;
  /** The agents' environment module (issue #30), when the skill is an agent's. */
  environment?: RunEnvironmentSpec;
  /** A skill package's untrained text files, which an agent may read. */
  packageFiles?: PackageFile[];
  /** The skill's name and description (a package's front matter), for an agent that finds skills by them. */
  skillMeta?: Partial<SkillMeta>;
}

export interface Evaluation {
  hard: number;
  soft: number;
  n: number;
  errors: number;
  rows: RolloutRow[];
  costUsd: number;
}

export interface SessionOptions {
  signal?: AbortSignal;
  onEvent?: EventSink;
  /** The session's store: a throwaway one unless given (the runner's holds merged shard rows, issue #42 item 6). */
  store?: RunStore;
}

/** What a session outside a run is asked about, without the split an evaluation scores. */
export type SessionInput = Omit<EvaluateInput, 'split' | 'limit'>;

/**
 * The target, LLM port and environment a session outside a run uses (service/target.ts chooses
 * them, as for a run), handed to `run`; the environment is disposed after.
 */
export async function withSessionTarget<T>(
  deps: HostDeps,
  input: SessionInput,
  o: SessionOptions,
  run: (engine: SessionDeps) => Promise<T>,
): Promise<Outcome<{ value: T }>> {
  // Items with a user_goal are conversations: the user simulator's own endpoint plays their users.
  const conversations = input.data.items.some((i) => i.agent?.user);
  const chosen = await targetOf(deps, input.endpoints, input.config, input.skillMeta);
  if (!chosen.ok) return chosen;
  const refused = workspaceRefusal(input.data.items, chosen.target);
  if (refused) return fail('invalid_config', refused);
  const port = await llmPortFor(deps, input.endpoints, input.config, 'evaluate', { conversations });
  if (!port.ok) return port;
  const environment = await environmentOf(deps.environment, input.environment);
  const value = await run({
    llm: port.llm,
    store: o.store ?? new MemoryRunStore(),
    prompts: buildPromptSet(deps.promptFiles, input.config.promptOverrides),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.onEvent ? { onEvent: o.onEvent } : {}),
    now: deps.now,
    environment,
    target: chosen.target,
  }).finally(() => environment?.dispose?.());
  return { ok: true, value };
}

/** The engine's view of a session's input: the skill, settings, data and prices. */
export const engineInput = (input: SessionInput) => ({
  skill: input.skill,
  config: input.config,
  data: input.data,
  prices: input.prices,
  ...(input.packageFiles ? { packageFiles: input.packageFiles } : {}),
});

/** One skill rolled out and scored on a split; nothing is kept (a throwaway store, unless one is given). */
export async function evaluateSkill(
  deps: HostDeps,
  input: EvaluateInput,
  o: SessionOptions = {},
): Promise<Outcome<Evaluation>> {
  const ran = await withSessionTarget(deps, input, o, (engine) =>
    evaluate({ ...engineInput(input), split: input.split, limit: input.limit }, engine),
  );
  if (!ran.ok) return ran;
  const r = ran.value;
  if (!r.ok) return fail(r.kind, r.reason);
  return { ok: true, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, rows: r.rows, costUsd: r.costUsd };
}

export interface Feedback {
  reasoning: string;
  candidate: string;
  applied: number;
  proposed: number;
  costUsd: number;
}

/** A person's feedback turned into a bounded patch of the skill, for them to take or leave. */
export async function improveWithFeedback(
  deps: HostDeps,
  input: { skill: string; feedback: string; config: RunConfig; endpoints: RunEndpoints; prices?: Prices },
): Promise<Outcome<Feedback>> {
  const port = await llmPortFor(deps, input.endpoints, input.config, 'feedback');
  if (!port.ok) return port;
  if (!input.feedback.trim()) return fail('invalid_input', 'Write some feedback first.');
  const r = await improve(
    { skill: input.skill, feedback: input.feedback, config: input.config, prices: input.prices },
    {
      llm: port.llm,
      store: new MemoryRunStore(),
      prompts: buildPromptSet(deps.promptFiles, input.config.promptOverrides),
      now: deps.now,
    },
  );
  if (!r.ok) return fail(r.kind, r.reason);
  const applied = r.report.filter((x) => x.status.startsWith('applied')).length;
  return {
    ok: true,
    reasoning: r.reasoning,
    candidate: r.candidate,
    applied,
    proposed: r.edits.length,
    costUsd: r.costUsd,
  };
}

export interface EstimateInput {
  config: RunConfig;
  /** The dataset's first items (the estimate reads a sample) and its split sizes. */
  items: DatasetItem[];
  splits: { train: number; val: number; test: number };
  skill: string;
  prices?: Prices;
  /** The run's target: its batch API sends the one-shot phases as batches; an agent CLI's every rollout is an agent's. */
  target?: Pick<StoredEndpoint, 'batchApi' | 'agentCommand'>;
  /** The activation track's queries, split here as the run will split them. */
  triggerQueries?: readonly TriggerQuery[];
  /** The dataset's own tools and the run's environment (a module, MCP servers): with either, rollouts are agents' (issue #30). */
  datasetTools?: readonly unknown[];
  environment?: RunEnvironmentSpec;
  /** The mean turns per rollout a run measured at its baseline, when there is one. */
  measuredTurns?: number;
  /** The effort each role's calls reason at (core/config/capabilities.ts estimatedEffort): their reasoning tokens. */
  reasoning?: Partial<Record<'target' | 'optimizer', Effort>>;
  /** Targets that confirm the starting and best skills on test after training (issue #42 item 5). */
  confirm?: readonly Pick<StoredEndpoint, 'agentCommand' | 'price'>[];
  /** Other targets that gate every candidate on validation (issue #42 item 5). */
  gateTargets?: readonly unknown[];
}

/** The cost of a planned run: calls per stage from the call formulas, tokens from the prompts. */
export function estimateCost(deps: Pick<HostDeps, 'promptFiles'>, input: EstimateInput): CostEstimate {
  // The same choice of target and environment as a session's (service/target.ts): an agent CLI
  // answers each item in one run of its own; the model's tool loop takes up to maxTurns calls.
  // Either way an agent's turns each wait on the last: never a batch, whatever the endpoint offers.
  const harness = isAgentTarget(input.target);
  const toolLoop = isAgenticSetup({
    datasetTools: input.datasetTools,
    items: input.items,
    environment: hasEnvironment(input.environment),
    referencesOnDemand: input.config.referencesOnDemand,
  });
  const loop = !harness && toolLoop;
  const t = input.triggerQueries?.length ? splitTriggerQueries(input.triggerQueries, input.config.seed) : null;
  const prompts = buildPromptSet(deps.promptFiles, input.config.promptOverrides);
  return estimate({
    config: input.config,
    items: input.items,
    splits: input.splits,
    skill: input.skill,
    template: rolloutTemplateOf(input.config, prompts),
    prompts,
    prices: input.prices,
    ...(input.reasoning ? { reasoning: input.reasoning } : {}),
    agentic: harness || loop,
    // A confirming target is an agent's when it is an agent CLI, or when the items go through the tool loop.
    ...(input.confirm?.length
      ? {
          confirm: input.confirm.map((t) => ({
            agentic: isAgentTarget(t) || toolLoop,
            ...(t.price ? { price: t.price } : {}),
          })),
        }
      : {}),
    ...(input.gateTargets?.length && input.config.useGate ? { gateTargets: input.gateTargets.length } : {}),
    ...(t ? { triggers: { train: t.train.length, val: t.val.length, test: t.test.length } } : {}),
    ...(loop
      ? {
          agent: input.measuredTurns
            ? { turns: input.measuredTurns, measured: true }
            : { turns: input.config.maxTurns, measured: false },
        }
      : { batchOneShot: !harness && Boolean(input.target?.batchApi) }),
  });
}
