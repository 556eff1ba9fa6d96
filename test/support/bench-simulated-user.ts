/**
 * The simulated-user worlds in `npm run bench:quality` (issue #31): the conversation world
 * (conversation-world.ts) — customers played by the test server's user simulator from their
 * goals, an agent whose skill decides what it asks, an analyst that reads whole conversations.
 * - simulated-user: the agent misses 5 % of the actions it gets right and guesses 3 % of those it
 *   gets wrong (the agentic world's rates);
 * - simulated-user-noisy: twice that.
 * Held-out replays the kept skill's conversations offline on the test items, neither the agent
 * nor the user slipping (conversation-episode.ts).
 */
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import type { RunConfig } from '../../src/core/config/run-config';
import type { RunDataset } from '../../src/engine/types';
import { trainAgentic, type AgenticSeedResult } from './bench-agentic';
import type { SeedOptions, SeedSetup } from './bench-quality';
import { conversationPolicy } from './conversation-agent';
import { conversationEpisode } from './conversation-episode';
import { conversationOptimizerAnswer } from './conversation-optimizer';
import { START_SKILL, conversationDatasetText } from './conversation-world';
import { loadPrompts } from './prompts';

export const SIMULATED_USER_WORLDS = ['simulated-user', 'simulated-user-noisy'] as const;
export type SimulatedUserWorld = (typeof SIMULATED_USER_WORLDS)[number];

const NOISE = { 'simulated-user': { miss: 0.05, guess: 0.03 }, 'simulated-user-noisy': { miss: 0.1, guess: 0.06 } } as const;

export function conversationDataset(): RunDataset {
  const r = importDatasetText(conversationDatasetText());
  if (!r.ok) throw new Error(`conversation world dataset invalid: ${JSON.stringify(r.problems)}`);
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

/** A skill's noise-free accuracy on the test conversations. */
export function conversationHeldOut(skill: string, data: RunDataset): number {
  const template = loadPrompts()['rollout-qa'];
  const byId = new Map(data.items.map((i) => [i.id, i]));
  const ids = data.splits.test;
  return ids.reduce((n, id) => n + conversationEpisode(skill, byId.get(id)!, template).hard, 0) / ids.length;
}

export function simulatedUserSetup(world: SimulatedUserWorld, noise = 1): SeedSetup {
  const data = conversationDataset();
  const targetNoise = NOISE[world];
  return {
    server: {
      targetNoise,
      agentPolicy: conversationPolicy(targetNoise),
      optimizerHook: (stage, system, user) => conversationOptimizerAnswer(stage, system, user, { noise }),
    },
    data,
    initialSkill: START_SKILL,
    knobs: { maxTurns: 8 },
    heldOut: (skill) => conversationHeldOut(skill, data),
  };
}

export function simulatedUserSeed(world: SimulatedUserWorld, seed: number, knobs: Partial<RunConfig>, opts: SeedOptions = {}): Promise<AgenticSeedResult> {
  return trainAgentic(world, simulatedUserSetup(world, opts.noise ?? 1), seed, knobs, opts);
}
