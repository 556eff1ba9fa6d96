/** What every stage of a run needs, built once per session of the run. */
import type { DatasetItem } from '../core/dataset-types';
import type { RunConfig } from '../core/run-config';
import type { RolloutTemplate } from '../core/templates';
import type { EventSink } from './events';
import type { Meter } from './meter';
import type { LlmPort, RunStore } from './ports';
import type { PromptSet } from './prompts';

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
