/**
 * The agentic worlds in `npm run bench:quality` (issue #30): the parts-and-orders desk
 * (agentic-world.ts) with a stochastic, tool-using agent and an analyst that reads trajectories.
 * - agentic: the agent misses 5 % of the actions it gets right and guesses 3 % of those it gets
 *   wrong — over a trajectory of two or three actions about the single-call noisy world's 10 %
 *   missed answers;
 * - agentic-noisy: twice that (10 % / 6 %), about the noisier world's 20 %;
 * - agentic-no-trajectories: the agentic world with `reflectOnTrajectories` off — the same loop,
 *   the analysts seeing only each final answer (the ablation: what trajectories are worth).
 * References are read on demand (SKILL.md in the prompt, units.md through read_file). Held-out is
 * the kept skill's accuracy on the test items when the agent does not slip, its trajectories run
 * offline against the items' environment and scored as the engine scores them (agentic-episode.ts).
 */
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import type { RunConfig } from '../../src/core/config/run-config';
import type { RunDataset, RolloutRow } from '../../src/engine/types';
import { AGENTIC_INITIAL_SKILL, agenticDatasetText } from './agentic-world';
import { agenticAccuracy, type EpisodeSetting } from './agentic-episode';
import { aggregate, trainSetup, trainingRows, type SeedOptions, type SeedResult, type SeedSetup } from './bench-quality';
import { loadPrompts } from './prompts';

export const AGENTIC_WORLDS = ['agentic', 'agentic-noisy', 'agentic-no-trajectories'] as const;
export type AgenticWorld = (typeof AGENTIC_WORLDS)[number];

/** Per-action noise of each world (see the header for why these rates). */
export const AGENTIC_NOISE = { agentic: { miss: 0.05, guess: 0.03 }, noisy: { miss: 0.1, guess: 0.06 } } as const;

export function agenticDataset(): RunDataset {
  const r = importDatasetText(agenticDatasetText());
  if (!r.ok) throw new Error(`agentic world dataset invalid: ${JSON.stringify(r.problems)}`);
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

/** How the bench's runs roll out and how held-out replays them (the same turns limit, references on demand). */
export const AGENTIC_KNOBS: Partial<RunConfig> = { referencesOnDemand: true, maxTurns: 8 };

/** A skill's noise-free accuracy on the test split, and its mean turns there. */
export function agenticHeldOut(skill: string, data: RunDataset, knobs: Partial<RunConfig> = AGENTIC_KNOBS): { accuracy: number; turns: number } {
  const setting: EpisodeSetting = {
    template: loadPrompts()['rollout-qa'],
    tools: data.tools ?? [],
    maxTurns: knobs.maxTurns ?? 8,
    referencesOnDemand: knobs.referencesOnDemand ?? false,
  };
  const byId = new Map(data.items.map((i) => [i.id, i]));
  return agenticAccuracy(skill, data.splits.test.map((id) => byId.get(id)!), setting);
}

export function agenticSetup(world: AgenticWorld, noise = 1): SeedSetup {
  const data = agenticDataset();
  const targetNoise = world === 'agentic-noisy' ? AGENTIC_NOISE.noisy : AGENTIC_NOISE.agentic;
  return {
    server: { world: 'agentic', noise, targetNoise },
    data,
    initialSkill: AGENTIC_INITIAL_SKILL,
    knobs: { ...AGENTIC_KNOBS, ...(world === 'agentic-no-trajectories' ? { reflectOnTrajectories: false } : {}) },
    heldOut: (skill) => agenticHeldOut(skill, data).accuracy,
  };
}

export interface AgenticSeedResult extends SeedResult {
  /** Training rollouts (trajectories), and their mean model turns and tool calls. */
  rollouts: number;
  turnsPerRollout: number;
  callsPerRollout: number;
}

export function agenticSeed(world: AgenticWorld, seed: number, knobs: Partial<RunConfig>, opts: SeedOptions = {}): Promise<AgenticSeedResult> {
  return trainAgentic(world, agenticSetup(world, opts.noise ?? 1), seed, knobs, opts);
}

/** Train one seed of an agentic setup (the declared world's, or another host's such as MCP's). */
export async function trainAgentic(name: string, setup: SeedSetup, seed: number, knobs: Partial<RunConfig>, opts: SeedOptions = {}): Promise<AgenticSeedResult> {
  const { result, rows } = await trainSetup(name, setup, seed, knobs, opts);
  const train = trainingRows(rows);
  const mean = (f: (r: RolloutRow) => number) => (train.length ? train.reduce((a, r) => a + f(r), 0) / train.length : 0);
  return {
    ...result,
    rollouts: train.length,
    turnsPerRollout: mean((r) => r.turns ?? 1),
    callsPerRollout: mean((r) => (r.trajectory ?? []).filter((e) => e.kind === 'tool').length),
  };
}

const round = (x: number) => Number(x.toFixed(3));

export function aggregateAgentic(results: AgenticSeedResult[]) {
  const mean = (f: (r: AgenticSeedResult) => number) => round(results.reduce((a, r) => a + f(r), 0) / results.length);
  const base = aggregate(results);
  return {
    ...base,
    meanTurnsPerRollout: mean((r) => r.turnsPerRollout),
    meanCallsPerRollout: mean((r) => r.callsPerRollout),
    perSeed: base.perSeed.map((p, i) => ({ ...p, rollouts: results[i].rollouts, turnsPerRollout: round(results[i].turnsPerRollout), callsPerRollout: round(results[i].callsPerRollout) })),
  };
}

/** The per-seed table of one agentic world. */
export function agenticTable(world: string, mode: string, results: readonly AgenticSeedResult[]): string[] {
  const head = `${world} world (${mode}):  seed  held-out  true lift  target calls  rollouts  turns/rollout  calls/rollout  optimizer calls  accepts`;
  const pad = (v: string | number, n: number) => String(v).padStart(n);
  return [
    head,
    ...results.map(
      (r) =>
        `  ${pad(r.seed, 4)}  ${pad(r.heldOut.toFixed(3), 8)}  ${pad((r.heldOut - r.initialHeldOut).toFixed(3), 9)}  ${pad(r.trainingTargetCalls, 12)}  ${pad(r.rollouts, 8)}  ${pad(r.turnsPerRollout.toFixed(2), 13)}  ${pad(r.callsPerRollout.toFixed(2), 13)}  ${pad(r.optimizerCalls, 15)}  ${pad(r.accepts, 7)}`,
    ),
  ];
}

/** The agentic worlds side by side: with trajectories, with more noise, and the ablation without them. */
export function agenticSummary(rows: readonly [string, ReturnType<typeof aggregateAgentic>][]): string[] {
  const pad = (v: string | number, n: number) => String(v).padStart(n);
  return [
    'agentic worlds:                 mean held-out  min held-out  target calls  turns/rollout  calls/rollout',
    ...rows.map(
      ([w, a]) =>
        `  ${w.padEnd(26)}  ${pad(a.meanHeldOut.toFixed(3), 13)}  ${pad(a.minHeldOut.toFixed(3), 12)}  ${pad(Math.round(a.meanTrainingTargetCalls), 12)}  ${pad(a.meanTurnsPerRollout.toFixed(2), 13)}  ${pad(a.meanCallsPerRollout.toFixed(2), 13)}`,
    ),
  ];
}
