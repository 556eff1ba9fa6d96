/**
 * The activation track in `npm run bench:quality` (issue #23 item 4): the trigger world
 * (trigger-world.ts) over 8 seeds, with a describer that slips (a quarter of its rewrites are
 * over-broad, as many forget the families they had) and, in the noisy variant, an agent that flips
 * 10 % of its right decisions and 5 % of its wrong ones. Held-out is the share of the run's test
 * queries the kept description decides right *without noise*; the figure the run shows (its test
 * shares, noise in them) is reported beside it.
 * activation-aa is the A/A variant (issue #40): the noisy agent, and a describer that only rewords the
 * starting description — every rewrite names the same families, so the agent decides every query as
 * before and no rewrite is better or worse: a run whose description changed accepted a false gain.
 */
import type { RunConfig } from '../../src/core/config/run-config';
import { splitTriggerQueries, triggerItems } from '../../src/core/dataset/trigger-queries';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { runTraining } from '../../src/engine/run/trainer';
import { loadPrompts } from './prompts';
import { testEndpoint } from './endpoints';
import { INITIAL_SKILL, SMALL_CONFIG, worldDataset } from './harness';
import { startLlmServer } from './llm-server';
import { percentile } from './generated-figures';
import { hashFraction } from './sim-text';
import { agentLoads, shouldLoad, TRIGGER_START_DESCRIPTION, triggerWorldQueries } from './trigger-world';

export const ACTIVATION_WORLDS = ['activation', 'activation-noisy', 'activation-aa'] as const;
export type ActivationWorld = (typeof ACTIVATION_WORLDS)[number];

export interface ActivationSeedResult {
  seed: number;
  heldOut: number;
  initialHeldOut: number;
  /** The run's own test shares (kept − starting), the agent's noise in them. */
  shownLift: number;
  accepts: number;
  rejects: number;
  calls: number;
  /** The kept description is not the starting one (in the A/A world, a false accept). */
  changed: boolean;
}

/**
 * Neutral rewordings of TRIGGER_START_DESCRIPTION: the same two families, nothing more or less (48
 * of them, so most rewrites are new texts and the agent draws its noise afresh for each).
 */
export const NEUTRAL_REWORDINGS = ['Answers questions', 'Handles questions', 'Helps with questions', 'Responds to questions']
  .flatMap((verb) => ['about', 'on', 'concerning'].map((on) => `${verb} ${on}`))
  .flatMap((head) => ['amber and basalt', 'basalt and amber'].map((pair) => `${head} ${pair} specimens`))
  .flatMap((text) => [`${text}.`, `${text} only.`]);

/** The A/A describer: a neutral rewording other than the description it is shown, drawn from its prompt. */
export function neutralDescriber(stage: string, _system: string, user: string) {
  if (stage !== 'describe_skill') return undefined;
  const current = /## Current description\n([\s\S]*?)\n\n## /.exec(user)?.[1]?.trim() ?? '';
  const others = NEUTRAL_REWORDINGS.filter((d) => d !== current);
  return { reasoning: 'Reword it.', description: others[Math.floor(hashFraction(`aa describe|${user}`) * others.length)] };
}

export async function activationSeed(world: ActivationWorld, seed: number, knobs: Partial<RunConfig> = {}): Promise<ActivationSeedResult> {
  const noisy = world !== 'activation';
  const server = await startLlmServer({
    describerSlip: 0.25,
    noiseSeed: seed,
    ...(noisy ? { targetNoise: { miss: 0.1, guess: 0.05 } } : {}),
    ...(world === 'activation-aa' ? { optimizerHook: neutralDescriber } : {}),
  });
  try {
    const config: RunConfig = { ...SMALL_CONFIG, seed, epochs: 3, activationTrack: true, ...knobs };
    const queries = triggerWorldQueries();
    const store = new MemoryRunStore();
    const llm = createLlmPort(
      { target: testEndpoint(server.url, 'sim-target', { concurrency: 4 }), optimizer: testEndpoint(server.url, 'sim-optimizer', { concurrency: 4 }) },
      { backoffBaseMs: 5, maxBackoffMs: 50 },
    );
    const runId = `${world}-${seed}`;
    const activation = { queries, name: 'specimen-codes', description: TRIGGER_START_DESCRIPTION };
    const outcome = await runTraining({ runId, config, data: worldDataset(60), initialSkill: INITIAL_SKILL, activation }, { llm, store, prompts: loadPrompts(), signal: new AbortController().signal });
    if (outcome.status !== 'completed') throw new Error(`${runId} ended ${outcome.status}: ${outcome.reason}`);
    const a = outcome.summary!.activation!;
    const test = new Set(splitTriggerQueries(queries, seed).test);
    const held = triggerItems(queries, '').filter((i) => test.has(i.id));
    const right = (d: string) => held.filter((i) => agentLoads(d, i.question) === shouldLoad(i.question)).length / held.length;
    const rows = await store.listRollouts(runId);
    return {
      seed,
      heldOut: right(a.description),
      initialHeldOut: right(a.initialDescription),
      shownLift: a.test ? a.test.best - a.test.initial : 0,
      accepts: a.epochs.filter((e) => e.action === 'accept').length,
      rejects: a.epochs.filter((e) => e.action === 'reject').length,
      calls: rows.filter((r) => !r.cached && r.phase.startsWith('activation/')).length + (await store.listCalls(runId)).filter((c) => c.stage === 'describe_skill').length,
      changed: a.description !== a.initialDescription,
    };
  } finally {
    await server.close();
  }
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export function aggregateActivation(results: ActivationSeedResult[]) {
  const mean = (f: (r: ActivationSeedResult) => number) => round(results.reduce((a, r) => a + f(r), 0) / results.length);
  return {
    heldOutMean: mean((r) => r.heldOut),
    heldOutP10: round(percentile(results.map((r) => r.heldOut), 0.1)),
    heldOutMin: round(Math.min(...results.map((r) => r.heldOut))),
    initialHeldOutMean: mean((r) => r.initialHeldOut),
    trueLiftMean: mean((r) => r.heldOut - r.initialHeldOut),
    shownLiftMean: mean((r) => r.shownLift),
    accepts: mean((r) => r.accepts),
    rejects: mean((r) => r.rejects),
    callsMean: mean((r) => r.calls),
    changed: results.filter((r) => r.changed).length,
  };
}

/** The per-seed table (`--table`): held-out, where it started, whether the description changed, calls. */
export function activationTable(world: ActivationWorld, results: readonly ActivationSeedResult[]): string[] {
  return results.map(
    (r) =>
      `${world} seed ${r.seed}: held-out ${r.heldOut.toFixed(2)} (start ${r.initialHeldOut.toFixed(2)}) ` +
      `${r.changed ? 'changed' : 'kept'} the description, ${r.accepts} accepts, ${r.calls} calls`,
  );
}
