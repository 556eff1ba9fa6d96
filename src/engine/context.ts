/** What every stage of a run needs, built once per session of the run. */
import type { DatasetItem } from '../core/dataset-types';
import { skillHash } from '../core/hash';
import type { RunConfig } from '../core/run-config';
import type { RolloutTemplate } from '../core/templates';
import type { EventSink } from './events';
import { Meter, outputLimits, type Prices } from './meter';
import type { LlmPort, Role, RunStore } from './ports';
import { CallSlots } from '../core/call-slots';
import type { PromptName, PromptSet } from './prompts';

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
}): Promise<EngineContext> {
  const template = rolloutTemplateOf(a.config, a.prompts);
  return {
    ...a,
    rolloutTemplate: template,
    items: new Map(a.items.map((i) => [i.id, i])),
    slots: {
      target: new CallSlots(a.config.targetConcurrency),
      optimizer: new CallSlots(a.config.optimizerConcurrency),
      judge: new CallSlots(a.config.optimizerConcurrency),
    },
    // Part of the rollout cache key: what the target saw and how its answer was scored.
    targetKey: `${a.llm.targetSettingsKey()}|${await skillHash(JSON.stringify([template, a.config.rollout.contextLimit, a.config.scorer]))}`,
  };
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
}): Promise<EngineContext> {
  return createContext({
    ...a,
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
