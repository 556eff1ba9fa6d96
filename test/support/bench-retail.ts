/**
 * The retail worlds in `npm run bench:quality` (issue #43 item 2): the store desk (retail-world.ts)
 * whose store lives in an environment module's state (retail-store.ts, served by the engine's
 * module host as the runner serves a module file), its customers simulated users, its agent a
 * stochastic tool caller (retail-agent.ts), its analyst one that reads conversations
 * (retail-optimizer.ts).
 * - retail: the agent misses 5 % of the actions it gets right (it ignores its rules for a step)
 *   and guesses 3 % of those it gets wrong, as the agentic world's agent;
 * - retail-no-trajectories: the same with `reflectOnTrajectories` off — the analysts see each
 *   final answer only (the ablation: what trajectories are worth on a stateful world).
 * Held-out replays the kept skill's conversations offline on the test items, neither the agent
 * nor the customer slipping, scored by the store's final state and the answer (retail-episode.ts).
 */
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import type { RunConfig } from '../../src/core/config/run-config';
import { moduleHost, remoteEnvironment } from '../../src/engine/module-environment';
import type { RunDataset } from '../../src/engine/types';
import { trainAgentic, type AgenticSeedResult } from './bench-agentic';
import { percentile } from './generated-figures';
import type { SeedOptions, SeedSetup } from './bench-quality';
import { loadPrompts } from './prompts';
import { retailPolicy } from './retail-agent';
import { retailAccuracy } from './retail-episode';
import { retailOptimizerAnswer } from './retail-optimizer';
import retailStore from './retail-store';
import { START_SKILL, retailDatasetText } from './retail-world';

export const RETAIL_WORLDS = ['retail', 'retail-no-trajectories'] as const;
export type RetailWorld = (typeof RETAIL_WORLDS)[number];

/** Per-action noise of the agent (the agentic world's rates). */
export const RETAIL_NOISE = { miss: 0.05, guess: 0.03 } as const;
/** Model turns between two customer messages: the longest chain (7 calls) and its answer, with room. */
export const RETAIL_KNOBS: Partial<RunConfig> = { maxTurns: 10 };

export function retailDataset(): RunDataset {
  const r = importDatasetText(retailDatasetText());
  if (!r.ok) throw new Error(`retail world dataset invalid: ${JSON.stringify(r.problems)}`);
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

/** The store module as the engine sees a module: served by its host, each request under a time limit. */
export function retailEnvironment() {
  const host = moduleHost(retailStore);
  return remoteEnvironment(async () => host, {
    label: 'environment module retail-store',
    identity: 'module:retail-store',
    timeoutMs: 10_000,
  });
}

/** A skill's noise-free accuracy on a split. */
export function retailHeldOut(skill: string, data: RunDataset, split: 'test' | 'val' = 'test'): number {
  const byId = new Map(data.items.map((i) => [i.id, i]));
  return retailAccuracy(
    skill,
    data.splits[split].map((id) => byId.get(id)!),
    loadPrompts()['rollout-qa'],
  );
}

export function retailSetup(world: RetailWorld, noise = 1): SeedSetup {
  const data = retailDataset();
  return {
    server: {
      targetNoise: RETAIL_NOISE,
      agentPolicy: retailPolicy(RETAIL_NOISE),
      optimizerHook: (stage, system, user) => retailOptimizerAnswer(stage, system, user, { noise }),
    },
    data,
    initialSkill: START_SKILL,
    knobs: { ...RETAIL_KNOBS, ...(world === 'retail-no-trajectories' ? { reflectOnTrajectories: false } : {}) },
    heldOut: (skill) => retailHeldOut(skill, data),
    valTruth: (skill) => retailHeldOut(skill, data, 'val'),
    environment: async () => ({ environment: retailEnvironment(), close: async () => undefined }),
  };
}

/** Seeds of each retail world in a default `bench:quality` run (it stays under 5 minutes on 2 cores). */
export const DEFAULT_RETAIL_SEEDS = 2;

/** One line a person reads: held-out mean, 10th percentile and min over the seeds, and the training calls. */
export function retailLine(world: string, mode: string, results: readonly AgenticSeedResult[]): string {
  const held = results.map((r) => r.heldOut);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const f = (x: number) => x.toFixed(3);
  const calls = Math.round(mean(results.map((r) => r.trainingTargetCalls)));
  const optimizer = Math.round(mean(results.map((r) => r.optimizerCalls)));
  return (
    `${world} (${mode}, ${results.length} seeds): held-out mean ${f(mean(held))}, p10 ${f(percentile(held, 0.1))}, ` +
    `min ${f(Math.min(...held))}; training target calls ${calls}, optimizer calls ${optimizer} per run`
  );
}

export function retailSeed(
  world: RetailWorld,
  seed: number,
  knobs: Partial<RunConfig>,
  opts: SeedOptions = {},
): Promise<AgenticSeedResult> {
  return trainAgentic(world, retailSetup(world, opts.noise ?? 1), seed, knobs, opts);
}
