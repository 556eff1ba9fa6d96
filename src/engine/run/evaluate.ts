/**
 * Evaluating one skill on a split, outside any run (the worker's `evaluateSkill`): the same
 * rollouts, scorer and error handling as training, with nothing stored beyond the store given
 * (the worker passes a throwaway one).
 */
import type { SplitName } from '../../core/dataset/dataset-types';
import type { RunConfig } from '../../core/config/run-config';
import { createStandaloneContext } from '../context';
import type { EventSink } from '../events';
import type { Prices } from '../meter';
import { isPauseError } from '../pause';
import type { LlmPort, RunStore } from '../ports';
import type { PromptSet } from '../prompts';
import { rolloutPhase } from '../rollout';
import type { RolloutRow, RunDataset, StageUsage } from '../types';
import type { PackageFile } from '../../core/skill/skill-package';
import type { ToolEnvironment } from '../environment';
import type { Target } from '../target-port';
import { modelTarget } from '../target/model-target';

export interface EvaluateInput {
  skill: string;
  split: SplitName;
  /** Only the first n items of the split (0 = all). */
  limit: number;
  config: RunConfig;
  data: RunDataset;
  prices?: Prices;
  /** A skill package's untrained text files, for an agent's read_file (issue #30). */
  packageFiles?: readonly PackageFile[];
}

export type EvaluateOutcome =
  | {
      ok: true;
      hard: number;
      soft: number;
      n: number;
      errors: number;
      rows: RolloutRow[];
      usage: Record<string, StageUsage>;
      costUsd: number;
    }
  | { ok: false; reason: string; kind: string };

/** What a session outside a run is given: the ports, the prompts, and what is evaluated. */
export interface SessionDeps {
  llm: LlmPort;
  store: RunStore;
  prompts: PromptSet;
  signal?: AbortSignal;
  onEvent?: EventSink;
  now?: () => number;
  environment?: ToolEnvironment;
  /** What is evaluated (engine/target-port.ts); the model endpoint's target when none is given. */
  target?: Target;
}

/** The engine context of a session outside a run (an evaluation, section credit, a gated drop). */
export function sessionContext(runId: string, input: Omit<EvaluateInput, 'split' | 'limit'>, deps: SessionDeps) {
  return createStandaloneContext({
    runId,
    config: input.config,
    ...deps,
    emit: deps.onEvent,
    items: input.data.items,
    prices: input.prices,
    datasetTools: input.data.tools,
    packageFiles: input.packageFiles,
    target: deps.target ?? modelTarget,
  });
}

/** A pause or a failed call ends a session with its reason; anything else is a bug and is thrown on. */
export function stoppedBy(e: unknown): { ok: false; reason: string; kind: string } {
  if (isPauseError(e)) return { ok: false, reason: e.message, kind: e.kind };
  if (e instanceof Error && e.name === 'LlmError') return { ok: false, reason: e.message, kind: 'aborted' };
  throw e;
}

export async function evaluateSkill(input: EvaluateInput, deps: SessionDeps): Promise<EvaluateOutcome> {
  const ctx = await sessionContext('evaluation', input, deps);
  const meter = ctx.meter;
  const ids = input.data.splits[input.split];
  try {
    const r = await rolloutPhase(ctx, {
      phase: `eval/${input.split}`,
      skill: input.skill,
      itemIds: input.limit > 0 ? ids.slice(0, input.limit) : ids,
    });
    return {
      ok: true,
      hard: r.hard,
      soft: r.soft,
      n: r.n,
      errors: r.errors,
      rows: r.rows,
      usage: meter.byStage,
      costUsd: meter.totalCostUsd,
    };
  } catch (e) {
    return stoppedBy(e);
  }
}
