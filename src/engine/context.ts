/** What every stage of a run needs, built once per session of the run. */
import type { DatasetItem } from '../core/dataset/dataset-types';
import { skillHash } from '../core/basics/hash';
import type { RunConfig } from '../core/config/run-config';
import type { RolloutTemplate } from '../core/config/templates';
import type { EventSink } from './events';
import { Meter, outputLimits, type Prices } from './meter';
import type { LlmPort, Role, RunStore } from './ports';
import { CallSlots } from '../core/basics/call-slots';
import type { PromptName, PromptSet } from './prompts';
import { NO_TARGET, type AgentSetup, type Target } from './target-port';
import type { ToolEnvironment } from './environment';
import type { ToolSpec } from '../core/agent/tool-spec';
import { isAgenticSetup } from '../core/agent/environment-spec';
import { comparatorOf, type ComparatorKind } from '../core/verdict/comparator';
import type { PackageFile } from '../core/skill/skill-package';

export interface EngineContext {
  runId: string;
  config: RunConfig;
  llm: LlmPort;
  store: RunStore;
  prompts: PromptSet;
  rolloutTemplate: RolloutTemplate;
  items: ReadonlyMap<string, DatasetItem>;
  targetKey: string;
  meter: Meter;
  signal: AbortSignal;
  emit: EventSink;
  now: () => number;
  /** Calls under way per role; a prompt is built only once its call holds a slot. */
  slots: Record<Role, CallSlots>;
  agent: AgentSetup;
  /** What is being trained (engine/target-port.ts), chosen once by the run's host or service. */
  target: Target;
  /** How two skills are compared (engine/comparator.ts): the mean or the posterior, chosen once for the run. */
  comparator: ComparatorKind;
  /**
   * The target calls of each round a verdict asked again, in order over the session (rounds the
   * cache answered alone left out): a round waits for the one before, so these are round trips a
   * step's bound must count (issue #45). A step's record keeps its own.
   */
  verdictRounds: number[];
  /** Other targets that gate every candidate (issue #42 item 5): each must find it no worse. */
  otherTargets?: readonly { label: string; ctx: EngineContext }[];
}

/**
 * What the LLM port adapted to a model's refusals (a parameter dropped, a value changed: issue
 * #44) goes to the run's log: the call succeeded, and the person should know what was sent.
 */
function loggingAdaptations(llm: LlmPort, emit: EventSink): LlmPort {
  return {
    ...llm,
    complete: async (req) => {
      const res = await llm.complete(req);
      for (const message of res.adapted ?? []) emit({ type: 'log', level: 'warn', message });
      return res;
    },
  };
}

/** The rollout template a config asks for: a bundled preset, or its own custom template. */
export function rolloutTemplateOf(config: RunConfig, prompts: PromptSet): RolloutTemplate {
  if (config.rollout.preset === 'custom' && config.rollout.custom) return config.rollout.custom;
  const name = `rollout-${config.rollout.preset === 'custom' ? 'qa' : config.rollout.preset}` as PromptName;
  return prompts[name];
}

export async function createContext(a: {
  runId: string;
  config: RunConfig;
  llm: LlmPort;
  store: RunStore;
  prompts: PromptSet;
  items: readonly DatasetItem[];
  meter: Meter;
  signal: AbortSignal;
  emit: EventSink;
  now: () => number;
  datasetTools?: readonly ToolSpec[];
  packageFiles?: readonly PackageFile[];
  environment?: ToolEnvironment;
  target: Target;
}): Promise<EngineContext> {
  const template = rolloutTemplateOf(a.config, a.prompts);
  const agent: AgentSetup = {
    datasetTools: [...(a.datasetTools ?? [])],
    packageFiles: [...(a.packageFiles ?? [])],
    ...(a.environment ? { environment: a.environment } : {}),
    environmentTools: a.environment ? await a.environment.tools() : [],
    active: false,
  };
  agent.active =
    a.target.agentic ||
    isAgenticSetup({
      datasetTools: agent.datasetTools,
      items: a.items,
      environment: agent.environmentTools.length > 0,
      referencesOnDemand: a.config.referencesOnDemand,
    });
  // What shapes an agent's trajectory is part of what the target saw: the tools, the turn
  // limit, how references are read, the environment's identity — and a simulated user's model
  // and prompt, when a conversation has one (issue #31).
  const conversations = a.items.some((i) => i.agent?.user);
  const agentKey = agent.active
    ? JSON.stringify([
        agent.datasetTools,
        agent.environmentTools,
        agent.environment?.identity ?? '',
        agent.packageFiles,
        a.config.maxTurns,
        a.config.referencesOnDemand,
        ...(conversations ? [a.llm.settingsKey?.('userSimulator') ?? '', a.prompts.user_simulator] : []),
      ])
    : '';
  return {
    ...a,
    llm: loggingAdaptations(a.llm, a.emit),
    agent,
    comparator: comparatorOf(a.config),
    verdictRounds: [],
    rolloutTemplate: template,
    items: new Map(a.items.map((i) => [i.id, i])),
    slots: {
      target: new CallSlots(a.config.targetConcurrency),
      optimizer: new CallSlots(a.config.optimizerConcurrency),
      judge: new CallSlots(a.config.optimizerConcurrency),
      userSimulator: new CallSlots(a.config.optimizerConcurrency),
    },
    // Part of the rollout cache key: what the target saw and how its answer was scored.
    targetKey: `${a.llm.targetSettingsKey()}|${await skillHash(JSON.stringify([template, a.config.rollout.contextLimit, a.config.scorer]))}${agentKey ? `|${await skillHash(agentKey)}` : ''}`,
  };
}

/**
 * The run's context under another target (a confirming or gating one, issue #42 item 5): the same
 * run, store, meter and agent setup; the other target and its port.
 */
export function contextUnder(ctx: EngineContext, llm: LlmPort, target: Target): Promise<EngineContext> {
  return createContext({
    runId: ctx.runId,
    config: ctx.config,
    llm,
    store: ctx.store,
    prompts: ctx.prompts,
    items: [...ctx.items.values()],
    meter: ctx.meter,
    signal: ctx.signal,
    emit: ctx.emit,
    now: ctx.now,
    datasetTools: ctx.agent.datasetTools,
    packageFiles: ctx.agent.packageFiles,
    environment: ctx.agent.environment,
    target,
  });
}

/**
 * A context for work outside a run (evaluating a skill, turning feedback into edits): its own
 * meter under the config's budget; events go nowhere unless a sink is given.
 */
export function createStandaloneContext(a: {
  runId: string;
  config: RunConfig;
  llm: LlmPort;
  store: RunStore;
  prompts: PromptSet;
  items?: readonly DatasetItem[];
  prices?: Prices;
  signal?: AbortSignal;
  emit?: EventSink;
  now?: () => number;
  datasetTools?: readonly ToolSpec[];
  packageFiles?: readonly PackageFile[];
  environment?: ToolEnvironment;
  /** None for a session that rolls nothing out (a feedback rewrite). */
  target?: Target;
}): Promise<EngineContext> {
  return createContext({
    ...a,
    target: a.target ?? NO_TARGET,
    items: a.items ?? [],
    meter: new Meter(a.prices ?? {}, a.config.budget, outputLimits(a.llm)),
    signal: a.signal ?? new AbortController().signal,
    emit: a.emit ?? (() => {}),
    now: a.now ?? (() => Date.now()),
  });
}

/** Wall-clock time of each stage of a step, in ms. */
export class StageTimer {
  readonly timing: Record<string, number> = {};
  constructor(private readonly now: () => number) {}
  async time<T>(stage: string, fn: () => Promise<T>): Promise<T> {
    const t = this.now();
    try {
      return await fn();
    } finally {
      this.timing[stage] = (this.timing[stage] ?? 0) + (this.now() - t);
    }
  }
}
