/**
 * `npm run bench:quality` (issue #8): learning quality, not speed. Trains on the hard rule world
 * (rule-world.ts: pairs, a harmful and a broad starting rule, validation-blind families, a
 * fallible optimizer), on the same world with a noisier optimizer, and on the easy world, over
 * 8 seeds each, and prints one JSON line:
 * held-out (test split) accuracy of the best skill per seed, its mean and min, training target
 * calls (every target call but the test split's, cache hits excluded), optimizer calls, and
 * per-cause counters read from the step artifacts.
 * Options: --baseline (the issue-#8 mechanisms off: today's loop), --off=knob,knob (switch single
 * mechanisms off), --noise=X (how often the simulated optimizer slips, default 1), --seeds=N (default 8),
 * --world=hard|noisy|easy (default all three; noisy is the hard world at twice the noise), --table (a per-seed table before the JSON),
 * --gate-rule=no_regression|significance [--k=N] (a gate rule instead of the mean gate alone).
 * --update-mode=rewrite|full_rewrite (a whole-skill update mode instead of patches).
 */
import '../setup';
import { importDatasetText } from '../../src/core/dataset-import';
import { type RunConfig } from '../../src/core/run-config';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { runTraining } from '../../src/engine/trainer';
import type { RunDataset } from '../../src/engine/types';
import { loadPrompts } from './prompts';
import { testEndpoint } from './endpoints';
import { INITIAL_SKILL, SMALL_CONFIG, worldDataset } from './harness';
import { startLlmServer } from './llm-server';
import { HARD_INITIAL_SKILL, makeHardWorldItems } from './rule-world';

/** The issue-#8 mechanisms switched off: the loop as it was before them. */
export const BASELINE_KNOBS: Partial<RunConfig> = { screenEdits: false, trainCheck: false, repairEdits: false, carryEdits: false, tieBreak: false };

export function hardWorldDataset(): RunDataset {
  const r = importDatasetText(JSON.stringify(makeHardWorldItems()));
  if (!r.ok) throw new Error('hard world dataset invalid');
  return { items: r.dataset.items, splits: r.dataset.splits };
}

export interface SeedResult {
  seed: number;
  heldOut: number;
  trainingTargetCalls: number;
  optimizerCalls: number;
  accepts: number;
  counters: Record<string, number>;
}

/** `noisy` is the hard world with an optimizer that slips twice as often. */
export type World = 'hard' | 'noisy' | 'easy';

export async function trainSeed(url: string, world: World, seed: number, knobs: Partial<RunConfig>, opts: { store?: MemoryRunStore } = {}): Promise<SeedResult> {
  const config: RunConfig = { ...SMALL_CONFIG, seed, ...knobs };
  const data = world === 'easy' ? worldDataset(120) : hardWorldDataset();
  const store = opts.store ?? new MemoryRunStore();
  const llm = createLlmPort(
    { target: testEndpoint(url, 'sim-target', { concurrency: 4 }), optimizer: testEndpoint(url, 'sim-optimizer', { concurrency: 4 }) },
    { backoffBaseMs: 5, maxBackoffMs: 50 },
  );
  const runId = `${world}-${seed}`;
  const outcome = await runTraining(
    { runId, config, data, initialSkill: world === 'easy' ? INITIAL_SKILL : HARD_INITIAL_SKILL },
    { llm, store, prompts: loadPrompts(), signal: new AbortController().signal },
  );
  if (outcome.status !== 'completed') throw new Error(`${runId} ended ${outcome.status}: ${outcome.reason}`);
  const rows = await store.listRollouts(runId);
  const calls = await store.listCalls(runId);
  const summary = outcome.summary!;
  const best = summary.tests.find((t) => t.skill === 'best') ?? summary.tests.find((t) => t.skill === 'initial');
  return {
    seed,
    heldOut: best?.hard ?? 0,
    trainingTargetCalls: rows.filter((r) => !r.cached && !r.phase.startsWith('test/')).length,
    optimizerCalls: calls.length,
    accepts: summary.accepts,
    counters: await countCauses(store, runId, summary.totalSteps),
  };
}

/** Per-cause counters from the step artifacts of the issue-#8 mechanisms (absent ones count 0). */
async function countCauses(store: MemoryRunStore, runId: string, steps: number): Promise<Record<string, number>> {
  const counters: Record<string, number> = {};
  const add = (k: string, n = 1) => (counters[k] = (counters[k] ?? 0) + n);
  for (let s = 1; s <= steps; s++) {
    const key = `s${String(s).padStart(4, '0')}`;
    const screened = (await store.getArtifact(runId, `${key}/screened`))?.value as { dropped?: { reason: string }[] } | undefined;
    for (const d of screened?.dropped ?? []) add(`dropped:${d.reason}`);
    const check = await store.getArtifact(runId, `${key}/check`);
    if (check) add('trainChecks');
    const repair = (await store.getArtifact(runId, `${key}/repair`))?.value as { repaired?: boolean; dropped?: unknown[]; added?: unknown[] } | undefined;
    if (repair?.repaired) add('repairs');
    if (repair?.dropped?.length) add('repairDroppedEdits', repair.dropped.length);
    if (repair?.added?.length) add('repairAddedEdits', repair.added.length);
    const gate = (await store.getArtifact(runId, `${key}/gate`))?.value as { tieBreak?: { accepted: boolean } | null; carried?: number; skippedByCheck?: boolean } | undefined;
    if (gate?.tieBreak?.accepted) add('tieBreakAccepts');
    if (gate?.tieBreak && !gate.tieBreak.accepted) add('tieBreakRefusals');
    if (gate?.skippedByCheck) add('rejectedByTrainCheck');
    const rule = (gate as { rule?: { allowed: boolean } | null } | undefined)?.rule;
    if (rule && !rule.allowed) add('refusedByGateRule');
    if (gate?.carried) add('carriedEditsOffered', gate.carried);
    const ablation = (await store.getArtifact(runId, `${key}/ablation`))?.value as { removed?: unknown[] } | undefined;
    if (ablation) add('ablations');
  }
  return counters;
}

function aggregate(results: SeedResult[]) {
  const sum = (f: (r: SeedResult) => number) => results.reduce((a, r) => a + f(r), 0);
  const counters: Record<string, number> = {};
  for (const r of results) for (const [k, v] of Object.entries(r.counters)) counters[k] = (counters[k] ?? 0) + v;
  return {
    meanHeldOut: Number((sum((r) => r.heldOut) / results.length).toFixed(4)),
    minHeldOut: Math.min(...results.map((r) => r.heldOut)),
    meanTrainingTargetCalls: sum((r) => r.trainingTargetCalls) / results.length,
    meanOptimizerCalls: sum((r) => r.optimizerCalls) / results.length,
    counters,
    perSeed: results.map((r) => ({ seed: r.seed, heldOut: r.heldOut, targetCalls: r.trainingTargetCalls, optimizerCalls: r.optimizerCalls, accepts: r.accepts })),
  };
}

export async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const seeds = Array.from({ length: Number(arg('seeds') ?? 8) }, (_, i) => i + 1);
  const all: World[] = ['hard', 'noisy', 'easy'];
  const worlds = all.includes(arg('world') as World) ? [arg('world') as World] : all;
  // --off=a,b switches single mechanisms off (an ablation of the defaults).
  const off = Object.fromEntries((arg('off') ?? '').split(',').filter(Boolean).map((k) => [k, false])) as Partial<RunConfig>;
  // --gate-rule=no_regression|significance (and --k=N) measures a gate rule against the mean gate.
  const rule = arg('gate-rule') as RunConfig['gateRule'] | undefined;
  const ruleKnobs: Partial<RunConfig> = rule ? { gateRule: rule, ...(arg('k') ? { gateSignificanceK: Number(arg('k')) } : {}) } : {};
  const updateMode = arg('update-mode') as RunConfig['updateMode'] | undefined;
  const knobs = { ...(argv.includes('--baseline') ? BASELINE_KNOBS : off), ...ruleKnobs, ...(updateMode ? { updateMode } : {}) };
  const base = argv.includes('--baseline') ? 'baseline' : Object.keys(off).length ? `defaults without ${Object.keys(off).join(', ')}` : 'defaults';
  const ruled = rule ? `${base}, gate rule ${rule}${arg('k') ? ` k=${arg('k')}` : ''}` : base;
  const mode = updateMode ? `${ruled}, update mode ${updateMode}` : ruled;
  const out: Record<string, unknown> = { mode, seeds: seeds.length };
  const noise = Number(arg('noise') ?? 1);
  const servers = {
    hard: await startLlmServer({ world: 'hard', noise }),
    noisy: await startLlmServer({ world: 'hard', noise: 2 * noise }),
    easy: await startLlmServer({ world: 'easy', noise }),
  };
  try {
    for (const world of worlds) {
      const results: SeedResult[] = [];
      // Two seeds at a time: the machine has two cores and the runs are CPU-bound here.
      for (let i = 0; i < seeds.length; i += 2) {
        results.push(...(await Promise.all(seeds.slice(i, i + 2).map((s) => trainSeed(servers[world].url, world, s, knobs)))));
      }
      out[world] = aggregate(results);
      if (argv.includes('--table')) {
        console.log(`${world} world (${out.mode}):  seed  held-out  target calls  optimizer calls  accepts`);
        for (const r of results) console.log(`  ${String(r.seed).padStart(4)}  ${r.heldOut.toFixed(3).padStart(8)}  ${String(r.trainingTargetCalls).padStart(12)}  ${String(r.optimizerCalls).padStart(15)}  ${String(r.accepts).padStart(7)}`);
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.close()));
  }
  console.log(JSON.stringify(out));
  return 0;
}
