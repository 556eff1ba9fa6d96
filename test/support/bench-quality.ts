/**
 * `npm run bench:quality` (issues #8, #19, #40): learning quality, not speed. By default it trains the
 * generated worlds (bench-generated.ts, issue #40): a fixed development set and a fresh set whose seed
 * is new on every run and printed, 16 worlds each (`--generated=N` scales, `--sets=dev` or `fresh`,
 * `--fresh-seed=N` replays a fresh set): held-out mean, 10th percentile and minimum, runs stuck at their
 * start, A/A runs accepting a step, training target calls per run and to 0.95. The hand-made worlds
 * below are named regression cases: `--world=a,b` runs those, `--named` all of them, each over 8 seeds
 * (`--seeds=N`, from `--first-seed=N`), and prints one JSON line: held-out accuracy of the best skill per seed, its mean
 * and min, training target calls (every target call but the test split's, cache hits excluded),
 * optimizer calls, per-cause counters read from the step artifacts, and the run's lift figures.
 * Held-out is the best skill's accuracy on the test items *without noise* (what the simulated
 * target answers when it does not slip), so a stochastic world is judged on what was learned.
 * Worlds (rule-world.ts, llm-server.ts):
 * - hard: pairs, a harmful and a broad starting rule, validation-blind families, a fallible optimizer;
 * - sloppy: the hard world with an optimizer that slips twice as often;
 * - easy: the plain rule world;
 * - noisy / noisier: the hard world with a stochastic target that misses 10 % (20 %) of the answers
 *   it knows and guesses 5 % (10 %) of those it does not — a changed skill re-draws, and the same
 *   prompt asked again is a fresh sample;
 * - broad: a starting rule that carries three families, a repairer that slips in harmful rules;
 * - broad-noisy: the broad world with the noisy world's stochastic target;
 * - broad-pairs: the locked start (issue #32) — the broad world whose other families need grade
 *   marks the analysts see only once the prefix is right, so the first right step is neutral on train;
 * - broad-blind / broad-blind-noisy: the broad world with a repairer that restores nothing (issue #40):
 *   replacing the broad rule always breaks the families it carried, and only the loop itself can ask
 *   for them back (the old gate never left the start: the train check said "no better" six times);
 * - cold-noisier: the hard world's families from a start with no rule, the noisier target (20 % / 10 %)
 *   and analysts that propose nothing useful 40 % of the time: few useful steps, each gain a few items
 *   on a noisy validation set (the old gate said "no" to undecided verdicts: 0.891, min 0.75);
 * - aa: the A/A world (aa-world.ts) — the noisy target, a start right on half the items, an
 *   optimizer that only rewords: no candidate is better or worse, so every accept is a false one;
 * - activation / activation-noisy: the activation track's trigger world (bench-activation.ts);
 *   activation-aa its A/A variant (neutral rewordings, the noisy agent): `changed` counts false accepts;
 * - agentic / agentic-noisy / agentic-no-trajectories: a tool-using agent over several turns, and
 *   the same loop reflecting on final answers only (bench-agentic.ts);
 * - mcp-agentic: the agentic world's tools served by a real MCP server (bench-mcp.ts);
 * - simulated-user / simulated-user-noisy: conversations with simulated users whose goals hold
 *   facts the agent must ask for (bench-simulated-user.ts);
 * - retail / retail-no-trajectories (issue #43): a stateful store in an environment module's state,
 *   scored by its final state, and the same loop whose analysts see final answers only
 *   (bench-retail.ts). Both also run by default, on DEFAULT_RETAIL_SEEDS seeds (`--seeds=N` sets
 *   them; `--world=retail,retail-no-trajectories --seeds=8` runs them alone), each with a summary line.
 * Each seed gets its own server (its own noise seed), so runs never share a target's draws.
 * Beside the totals (issue #32): training target calls until the exported best first scores 0.95
 * held-out (bench-calls.ts) and by call stage; the verdict figures — runs and steps that accept,
 * the best validation shown against its truth, whether the shown lift's interval covers 0, and how
 * much of the validation lift the test keeps (the winner's curse).
 * Options: --baseline (the issue-#8 mechanisms off), --skillopt (SkillOpt unmodified: every safeguard and
 * noise measure off, the whole validation split per candidate), --off=knob,knob (switch single mechanisms
 * off), --on=knob,knob (switch single mechanisms on), --set=knob:N,knob:N (numeric knobs), --noise=X (how often the simulated optimizer
 * slips, default 1), --seeds=N (default 8), --world=a,b (default all), --table (a per-seed table
 * before the JSON), --gate-rule=no_regression|significance [--k=N], --update-mode=rewrite|full_rewrite, --calls-to=X
 * (training target calls until the best first scores X held-out: SkillOpt's own final score, say).
 */
import { shownLift } from '../../src/core/verdict/lift';
import '../setup';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { type RunConfig } from '../../src/core/config/run-config';
import { renderRollout } from '../../src/core/config/templates';
import { scoreResponse } from '../../src/core/scoring/scoring';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { runTraining } from '../../src/engine/run/trainer';
import type { RolloutRow, RunDataset, RunSummary } from '../../src/engine/types';
import type { ToolEnvironment } from '../../src/engine/environment';
import { loadPrompts } from './prompts';
import { fallibleOptimizer, generatedSets, trainWorlds, worldLine } from './bench-generated';
import { byFeature, percentile, setFigures } from './generated-figures';
import { callsByStage, callsToHeldOut } from './bench-calls';
import { AA_WORLD, aaOptimizerAnswer } from './aa-world';
import { testEndpoint } from './endpoints';
import { BENCH_CONFIG, INITIAL_SKILL, worldDataset } from './harness';
import { startLlmServer, type ServerOptions } from './llm-server';
import { ACTIVATION_WORLDS, activationSeed, activationTable, aggregateActivation } from './bench-activation';
import { MCP_WORLDS, mcpSeed } from './bench-mcp';
import { SIMULATED_USER_WORLDS, simulatedUserSeed } from './bench-simulated-user';
import { DEFAULT_RETAIL_SEEDS, RETAIL_WORLDS, retailLine, retailSeed } from './bench-retail';
import { AGENTIC_WORLDS, agenticSeed, agenticSummary, agenticTable, aggregateAgentic, type AgenticSeedResult } from './bench-agentic';
import { BROAD_PAIRS_WORLD, BROAD_WORLD, HARD_WORLD, hardTargetAnswer, makeHardWorldItems, simulatedTargetAnswer, type HardWorldItem, type HardWorldSpec } from './rule-world';

export const BASELINE_KNOBS: Partial<RunConfig> = { screenEdits: false, trainCheck: false, repairEdits: false, carryEdits: false, tieBreak: false };
/** SkillOpt unmodified: no safeguard, one answer per item, every candidate scored on all of validation, a higher mean accepts. */
export const SKILLOPT_KNOBS: Partial<RunConfig> = { ...BASELINE_KNOBS, settleVerdicts: false, noiseProbe: 0, gateConfidence: 0, lookAhead: false, earlyStopGate: false, settledStop: 0 };

export function hardWorldDataset(spec: HardWorldSpec = HARD_WORLD): RunDataset {
  return hardWorldDatasetOf(makeHardWorldItems(spec));
}

/** A rule world's items, each with its split, as a run's dataset. */
export function hardWorldDatasetOf(items: readonly HardWorldItem[]): RunDataset {
  const r = importDatasetText(JSON.stringify(items));
  if (!r.ok) throw new Error('rule world dataset invalid');
  return { items: r.dataset.items, splits: r.dataset.splits };
}

export interface SeedResult {
  seed: number;
  /** The best skill's accuracy on the test items without noise. */
  heldOut: number;
  /** The starting skill's, likewise: heldOut − initialHeldOut is the true lift. */
  initialHeldOut: number;
  /**
   * The lift the run reports to a person: the lift card's figure (noise taken out on a noisy
   * target, else best − initial on its own test rollouts), and its interval when it has one.
   */
  reportedLift: number | null;
  /** Best − initial as measured on the run's test rollouts, the target's noise in it. */
  measuredLift: number | null;
  liftInterval: [number, number] | null;
  trainingTargetCalls: number;
  /** Training target calls until the exported best first scores 0.95 held-out (null: never). */
  callsTo95: number | null;
  /** Training target calls until the exported best first scores `--calls-to` held-out (SkillOpt's own final score, issue #40). */
  callsToShown?: { threshold: number; calls: number | null };
  /** Training target calls by call stage (core/stages.ts). */
  callsByStage: Record<string, number>;
  optimizerCalls: number;
  /** The user simulator's calls (conversations with simulated users), not counted as optimizer calls. */
  simulatorCalls?: number;
  accepts: number;
  totalSteps: number;
  /** The exported best is not the starting skill (a step, the slow update or the final promotion moved it). */
  bestMoved: boolean;
  /** The best validation score the run shows, the one it measured as chosen, and the truth (no noise), when known. */
  shownBestValidation: number;
  baselineValidation: number;
  bestValidationTruth: number | null;
  counters: Record<string, number>;
  /** Accepted steps whose skill scores below the skill it replaced, held-out without noise (issue #43). */
  harmfulAccepts?: number;
}

/** Generated worlds per set when none is named: both sets stay under 5 minutes on 2 cores. */
export const DEFAULT_GENERATED = 16;

/** The hard world from a start with no rule (it scores what the target guesses). */
const COLD_WORLD: HardWorldSpec = { ...HARD_WORLD, name: 'cold', initialSkill: INITIAL_SKILL };

export const WORLDS = ['hard', 'sloppy', 'easy', 'noisy', 'noisier', 'broad', 'broad-noisy', 'broad-pairs', 'broad-blind', 'broad-blind-noisy', 'cold-noisier', 'aa'] as const;
export type World = (typeof WORLDS)[number];

/** Each world's server settings, dataset and starting skill. */
export function worldSetup(world: World, noise = 1): { server: Partial<ServerOptions>; spec: HardWorldSpec | null } {
  switch (world) {
    case 'hard': return { server: { world: 'hard', noise }, spec: HARD_WORLD };
    case 'sloppy': return { server: { world: 'hard', noise: 2 * noise }, spec: HARD_WORLD };
    case 'easy': return { server: { world: 'easy', noise }, spec: null };
    case 'noisy': return { server: { world: 'hard', noise, targetNoise: { miss: 0.1, guess: 0.05 } }, spec: HARD_WORLD };
    case 'noisier': return { server: { world: 'hard', noise, targetNoise: { miss: 0.2, guess: 0.1 } }, spec: HARD_WORLD };
    case 'broad': return { server: { world: 'broad', noise, repairSlip: 0.35 }, spec: BROAD_WORLD };
    case 'broad-pairs': return { server: { world: 'broad', noise, repairSlip: 0.35, spec: BROAD_PAIRS_WORLD }, spec: BROAD_PAIRS_WORLD };
    case 'aa': return { server: { world: 'hard', noise, targetNoise: { miss: 0.1, guess: 0.05 }, spec: AA_WORLD, optimizerHook: aaOptimizerAnswer }, spec: AA_WORLD };
    case 'broad-noisy': return { server: { world: 'broad', noise, repairSlip: 0.35, targetNoise: { miss: 0.1, guess: 0.05 } }, spec: BROAD_WORLD };
    // A repairer that restores nothing: what the broad rule carried comes back only if the loop itself asks for it (issue #40).
    case 'broad-blind': return { server: { world: 'broad', noise, repairSlip: 0.35, optimizerHook: fallibleOptimizer({ spec: BROAD_WORLD, slip: noise, repairSlip: 0.35, repairBlind: 1 }) }, spec: BROAD_WORLD };
    // The hard world's families from an empty start, the noisier target, analysts that propose nothing useful 40 % of the time.
    case 'cold-noisier': return { server: { world: 'hard', noise, targetNoise: { miss: 0.2, guess: 0.1 }, spec: COLD_WORLD, optimizerHook: fallibleOptimizer({ spec: COLD_WORLD, slip: noise, repairSlip: 0, useless: 0.4 }) }, spec: COLD_WORLD };
    case 'broad-blind-noisy': return { server: { world: 'broad', noise, repairSlip: 0.35, targetNoise: { miss: 0.1, guess: 0.05 }, optimizerHook: fallibleOptimizer({ spec: BROAD_WORLD, slip: noise, repairSlip: 0.35, repairBlind: 1 }) }, spec: BROAD_WORLD };
  }
}

/** Accuracy of a skill on the test items when the simulated target does not slip. */
export function noiseFreeAccuracy(skill: string, data: RunDataset, spec: HardWorldSpec | null, split: 'test' | 'val' = 'test'): number {
  const prompts = loadPrompts();
  const ids = data.splits[split];
  const byId = new Map(data.items.map((i) => [i.id, i]));
  let sum = 0;
  for (const id of ids) {
    const item = byId.get(id)!;
    const m = renderRollout(prompts['rollout-qa'], skill, item);
    const answer = spec ? hardTargetAnswer(m.system, m.user, spec) : simulatedTargetAnswer(m.system, m.user);
    sum += scoreResponse({ kind: 'exact' }, `<answer>${answer}</answer>`, item).hard;
  }
  return ids.length ? sum / ids.length : 0;
}

/** What a seed trains on: the server's world, the data, the starting skill, the world's own knobs, its held-out measure. */
export interface SeedSetup {
  server: Partial<ServerOptions>;
  data: RunDataset;
  initialSkill: string;
  knobs?: Partial<RunConfig>;
  /** The skill's accuracy on the test items without noise. */
  heldOut: (skill: string) => number;
  /** A host's environment for the agent's tools (MCP servers), started for the seed and closed after it. */
  environment?: () => Promise<{ environment: ToolEnvironment; close(): Promise<void> }>;
  /** Its accuracy on the validation items without noise: the truth a shown validation score estimates. */
  valTruth?: (skill: string) => number;
}

export async function trainSeed(world: World, seed: number, knobs: Partial<RunConfig>, opts: SeedOptions = {}): Promise<SeedResult> {
  const setup = worldSetup(world, opts.noise ?? 1);
  const data = setup.spec ? hardWorldDataset(setup.spec) : worldDataset(120);
  const initialSkill = setup.spec ? setup.spec.initialSkill : INITIAL_SKILL;
  const run = await trainSetup(world, { server: setup.server, data, initialSkill, heldOut: (skill) => noiseFreeAccuracy(skill, data, setup.spec), valTruth: (skill) => noiseFreeAccuracy(skill, data, setup.spec, 'val') }, seed, knobs, opts);
  return run.result;
}

export interface SeedOptions {
  store?: MemoryRunStore;
  /** Also count the training target calls until the best first scores this held-out (`--calls-to`). */
  callsTo?: number;
  noise?: number;
  concurrency?: number;
}

/** Train one seed on its own server (its own noise seed); the result, and the run's rollout rows. */
export async function trainSetup(name: string, setup: SeedSetup, seed: number, knobs: Partial<RunConfig>, opts: SeedOptions = {}): Promise<{ result: SeedResult; rows: RolloutRow[] }> {
  const server = await startLlmServer({ ...setup.server, noiseSeed: seed });
  const env = await setup.environment?.();
  try {
    const config: RunConfig = { ...BENCH_CONFIG, seed, ...(opts.concurrency ? { targetConcurrency: opts.concurrency, optimizerConcurrency: opts.concurrency } : {}), ...setup.knobs, ...knobs };
    const { data, initialSkill } = setup;
    const store = opts.store ?? new MemoryRunStore();
    const llm = createLlmPort(
      { target: testEndpoint(server.url, 'sim-target', { concurrency: config.targetConcurrency }), optimizer: testEndpoint(server.url, 'sim-optimizer', { concurrency: config.optimizerConcurrency }) },
      { backoffBaseMs: 5, maxBackoffMs: 50 },
    );
    const runId = `${name}-${seed}`;
    const deps = { llm, store, prompts: loadPrompts(), signal: new AbortController().signal, ...(env ? { environment: env.environment } : {}) };
    const outcome = await runTraining({ runId, config, data, initialSkill }, deps);
    if (outcome.status !== 'completed') throw new Error(`${runId} ended ${outcome.status}: ${outcome.reason}`);
    const rows = await store.listRollouts(runId);
    const calls = await store.listCalls(runId);
    const summary = outcome.summary!;
    const state = (await store.loadState(runId))!;
    const training = trainingRows(rows);
    const result: SeedResult = {
      seed,
      heldOut: setup.heldOut(state.gate.bestSkill),
      initialHeldOut: setup.heldOut(initialSkill),
      // What the lift card shows: the estimate when the target is noisy (core/verdict/lift.ts shownLift).
      reportedLift: summary.lift ? shownLift(summary.lift) : summary.testDelta,
      measuredLift: summary.testDelta,
      liftInterval: liftIntervalOf(summary),
      // Every model turn is a target call (an agent's trajectory takes several).
      trainingTargetCalls: training.reduce((n, r) => n + (r.turns ?? 1), 0),
      callsTo95: await callsToHeldOut(store, runId, training, { heldOut: setup.heldOut, threshold: 0.95, finalBest: state.gate.bestSkill }),
      ...(opts.callsTo !== undefined
        ? { callsToShown: { threshold: opts.callsTo, calls: await callsToHeldOut(store, runId, training, { heldOut: setup.heldOut, threshold: opts.callsTo, finalBest: state.gate.bestSkill }) } }
        : {}),
      callsByStage: callsByStage(training),
      optimizerCalls: calls.filter((c) => c.stage !== 'user_simulator').length,
      ...(calls.some((c) => c.stage === 'user_simulator') ? { simulatorCalls: calls.filter((c) => c.stage === 'user_simulator').length } : {}),
      accepts: summary.accepts,
      totalSteps: summary.totalSteps,
      bestMoved: state.gate.bestSkill !== initialSkill,
      shownBestValidation: summary.bestSelection,
      baselineValidation: summary.baselineSelection,
      bestValidationTruth: setup.valTruth ? setup.valTruth(state.gate.bestSkill) : null,
      counters: { ...(await countCauses(store, runId, summary.totalSteps)), ...riderCalls(training) },
      harmfulAccepts: await harmfulAccepts(store, runId, initialSkill, setup.heldOut),
    };
    return { result, rows };
  } finally {
    await server.close();
    await env?.close();
  }
}

/**
 * Accepted steps that made the skill worse on held-out (without noise): each step's accepted version
 * against the version before it (the start, an earlier step or a slow update).
 */
async function harmfulAccepts(store: MemoryRunStore, runId: string, initial: string, heldOut: (skill: string) => number): Promise<number> {
  let before = heldOut(initial);
  let harmful = 0;
  for (const v of await store.getSkillVersions(runId)) {
    if (v.origin === 'initial_skill') continue;
    const now = heldOut(v.text);
    if (v.origin.startsWith('step_') && now < before - 1e-9) harmful++;
    before = now;
  }
  return harmful;
}

/** Target calls of the rider probes and of the bundle checked without its riders (issue #43, 3a). */
function riderCalls(training: readonly RolloutRow[]): Record<string, number> {
  const calls = (re: RegExp) => training.filter((r) => re.test(r.phase)).reduce((n, r) => n + (r.turns ?? 1), 0);
  const probes = calls(/\/check-rider\d+(\/|$)/);
  const check = calls(/\/check-riders(\/|$)/);
  return probes + check ? { riderProbeCalls: probes, riderCheckCalls: check } : {};
}

/** The rollouts training asked for: every one but the test split's, cache hits excluded. */
export const trainingRows = (rows: readonly RolloutRow[]) => rows.filter((r) => !r.cached && !r.phase.startsWith('test/'));

/** The run's interval for the lift of the best skill over the starting one, when it reports one. */
function liftIntervalOf(summary: RunSummary): [number, number] | null {
  const lift = (summary as { lift?: { interval?: [number, number] } }).lift;
  return lift?.interval ?? null;
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

/**
 * What a user would bet on (issue #32): how often runs and steps accept, the best validation
 * shown against the truth, whether the shown lift's interval covers 0, and how much of the
 * validation lift the test keeps (the winner's curse: 1 keeps it all).
 */
export function verdictFigures(results: readonly SeedResult[]) {
  const round = (x: number) => Number(x.toFixed(4));
  const n = results.length;
  const truths = results.filter((r) => r.bestValidationTruth !== null);
  const valLift = results.reduce((a, r) => a + r.shownBestValidation - r.baselineValidation, 0);
  const testLift = results.reduce((a, r) => a + (r.reportedLift ?? 0), 0);
  const withInterval = results.filter((r) => r.liftInterval);
  return {
    runsAccepting: round(results.filter((r) => r.accepts > 0).length / n),
    runsMovingBest: round(results.filter((r) => r.bestMoved).length / n),
    stepsAccepted: round(results.reduce((a, r) => a + r.accepts, 0) / Math.max(1, results.reduce((a, r) => a + r.totalSteps, 0))),
    meanShownBestValidation: round(results.reduce((a, r) => a + r.shownBestValidation, 0) / n),
    maxShownBestValidation: round(Math.max(...results.map((r) => r.shownBestValidation))),
    ...(truths.length ? { meanBestValidationTruth: round(truths.reduce((a, r) => a + r.bestValidationTruth!, 0) / truths.length) } : {}),
    ...(withInterval.length ? { intervalCoversZero: round(withInterval.filter((r) => r.liftInterval![0] <= 1e-9 && r.liftInterval![1] >= -1e-9).length / withInterval.length) } : {}),
    meanValidationLift: round(valLift / n),
    meanShownTestLift: round(testLift / n),
    testKeeps: Math.abs(valLift) > 1e-9 ? round(testLift / valLift) : null,
  };
}

export function aggregate(results: SeedResult[]) {
  const sum = (f: (r: SeedResult) => number) => results.reduce((a, r) => a + f(r), 0);
  const counters: Record<string, number> = {};
  for (const r of results) for (const [k, v] of Object.entries(r.counters)) counters[k] = (counters[k] ?? 0) + v;
  const withInterval = results.filter((r) => r.liftInterval);
  const covers = (r: SeedResult) => r.liftInterval![0] - 1e-9 <= r.heldOut - r.initialHeldOut && r.heldOut - r.initialHeldOut <= r.liftInterval![1] + 1e-9;
  const round = (x: number) => Number(x.toFixed(4));
  return {
    meanHeldOut: round(sum((r) => r.heldOut) / results.length),
    minHeldOut: Math.min(...results.map((r) => r.heldOut)),
    meanTrainingTargetCalls: sum((r) => r.trainingTargetCalls) / results.length,
    // Calls to reach 0.95 held-out, over the seeds that reached it (a seed that never did counts its total).
    reached95: results.filter((r) => r.callsTo95 !== null).length,
    meanCallsTo95: round(sum((r) => r.callsTo95 ?? r.trainingTargetCalls) / results.length),
    // Calls to reach `--calls-to` (SkillOpt's own final score), likewise: a seed that never did counts its total.
    ...(results[0]?.callsToShown
      ? {
          callsTo: {
            threshold: results[0].callsToShown.threshold,
            reached: results.filter((r) => r.callsToShown!.calls !== null).length,
            meanCalls: round(sum((r) => r.callsToShown!.calls ?? r.trainingTargetCalls) / results.length),
          },
        }
      : {}),
    callsByStage: Object.fromEntries(
      [...new Set(results.flatMap((r) => Object.keys(r.callsByStage)))].map((k) => [k, round(sum((r) => r.callsByStage[k] ?? 0) / results.length)]),
    ),
    meanOptimizerCalls: sum((r) => r.optimizerCalls) / results.length,
    ...(results.some((r) => r.simulatorCalls) ? { meanSimulatorCalls: sum((r) => r.simulatorCalls ?? 0) / results.length } : {}),
    lift: {
      meanTrue: round(sum((r) => r.heldOut - r.initialHeldOut) / results.length),
      meanReported: round(sum((r) => r.reportedLift ?? 0) / results.length),
      meanMeasured: round(sum((r) => r.measuredLift ?? 0) / results.length),
      ...(withInterval.length
        ? {
            coverage: round(withInterval.filter(covers).length / withInterval.length),
            meanWidth: round(withInterval.reduce((a, r) => a + r.liftInterval![1] - r.liftInterval![0], 0) / withInterval.length),
          }
        : {}),
    },
    verdicts: verdictFigures(results),
    counters,
    perSeed: results.map((r) => ({
      seed: r.seed,
      heldOut: round(r.heldOut),
      trueLift: round(r.heldOut - r.initialHeldOut),
      reportedLift: r.reportedLift === null ? null : round(r.reportedLift),
      liftInterval: r.liftInterval?.map(round) ?? null,
      targetCalls: r.trainingTargetCalls,
      callsTo95: r.callsTo95,
      optimizerCalls: r.optimizerCalls,
      accepts: r.accepts,
    })),
  };
}

export async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  // --first-seed=N: the named worlds on seeds N, N+1, … instead of 1, 2, … (fresh seeds, not the tuned ones).
  const seeds = Array.from({ length: Number(arg('seeds') ?? 8) }, (_, i) => i + Number(arg('first-seed') ?? 1));
  // The hand-made worlds run when named (--world=a,b) or all at once (--named); the generated sets
  // run by default, and beside named worlds when --generated=N asks for them.
  const all = argv.includes('--named');
  const named = (arg('world') ?? '').split(',').filter(Boolean);
  const pick = <W extends string>(list: readonly W[]): W[] => (all ? [...list] : named.filter((w): w is W => (list as readonly string[]).includes(w)));
  const worlds = pick(WORLDS);
  const activationWorlds = pick(ACTIVATION_WORLDS);
  const agenticWorlds = pick(AGENTIC_WORLDS);
  const mcpWorlds = pick(MCP_WORLDS);
  const userWorlds = pick(SIMULATED_USER_WORLDS);
  // The stateful retail world and its ablation also run by default, on fewer seeds (--seeds=N sets them).
  const byDefault = !all && !named.length;
  const retailWorlds = byDefault ? [...RETAIL_WORLDS] : pick(RETAIL_WORLDS);
  const retailSeeds = byDefault && !arg('seeds') ? seeds.slice(0, DEFAULT_RETAIL_SEEDS) : seeds;
  const sets = generatedSets(arg, all || named.length ? 0 : DEFAULT_GENERATED);
  // --off=a,b / --on=a,b switch single mechanisms off or on (ablations of the defaults).
  const flags = (name: string, value: boolean) => Object.fromEntries((arg(name) ?? '').split(',').filter(Boolean).map((k) => [k, value]));
  const off = flags('off', false) as Partial<RunConfig>;
  const on = flags('on', true) as Partial<RunConfig>;
  // --set=repairRounds:1,maxSamples:3 sets numeric knobs.
  const set = Object.fromEntries((arg('set') ?? '').split(',').filter(Boolean).map((kv) => [kv.split(':')[0], Number(kv.split(':')[1])])) as Partial<RunConfig>;
  Object.assign(on, set);
  // --gate-rule=no_regression|significance (and --k=N) measures a gate rule against the mean gate.
  const rule = arg('gate-rule') as RunConfig['gateRule'] | undefined;
  const ruleKnobs: Partial<RunConfig> = rule ? { gateRule: rule, ...(arg('k') ? { gateSignificanceK: Number(arg('k')) } : {}) } : {};
  const updateMode = arg('update-mode') as RunConfig['updateMode'] | undefined;
  const preset = argv.includes('--skillopt') ? SKILLOPT_KNOBS : argv.includes('--baseline') ? BASELINE_KNOBS : { ...off, ...on };
  const knobs = { ...preset, ...ruleKnobs, ...(updateMode ? { updateMode } : {}) };
  const changed = [...Object.keys(off).map((k) => `without ${k}`), ...Object.entries(on).map(([k, v]) => `with ${k}${v === true ? '' : `=${v}`}`)];
  const base = argv.includes('--skillopt') ? 'SkillOpt unmodified' : argv.includes('--baseline') ? 'baseline' : changed.length ? `defaults ${changed.join(', ')}` : 'defaults';
  const ruled = rule ? `${base}, gate rule ${rule}${arg('k') ? ` k=${arg('k')}` : ''}` : base;
  const mode = updateMode ? `${ruled}, update mode ${updateMode}` : ruled;
  const out: Record<string, unknown> = { mode, seeds: seeds.length };
  const noise = Number(arg('noise') ?? 1);
  // --calls-to=0.92: the calls to reach another held-out too (SkillOpt's own final score on the world).
  const callsTo = arg('calls-to') !== undefined ? Number(arg('calls-to')) : undefined;
  for (const set of sets) {
    // A fresh set's seed is new on every run: printed first, so a surprising figure can be replayed.
    console.log(`${set.label} set: ${set.worlds.length} generated worlds, base seed ${set.base}${set.label === 'dev' ? ' (fixed)' : ` (fresh: --fresh-seed=${set.base} replays it)`}`);
    const results = await trainWorlds(set.worlds, knobs, { noise }, argv.includes('--table') ? (r) => console.log(worldLine(r)) : undefined);
    const figures = setFigures(results);
    out[`generated-${set.label}`] = { base: set.base, ...figures, byFeature: byFeature(results) };
    console.log(`${set.label} set (${mode}): ${JSON.stringify(figures)}`);
  }
  for (const world of worlds) {
    const results: SeedResult[] = [];
    // Two seeds at a time: the machine has two cores and the runs are CPU-bound here.
    for (let i = 0; i < seeds.length; i += 2) {
      results.push(...(await Promise.all(seeds.slice(i, i + 2).map((s) => trainSeed(world, s, knobs, { noise, ...(callsTo !== undefined ? { callsTo } : {}) })))));
    }
    out[world] = aggregate(results);
    if (argv.includes('--table')) {
      console.log(`${world} world (${out.mode}):  seed  held-out  true lift  reported  interval        target calls  to 0.95  optimizer calls  accepts  val shown  val truth`);
      for (const r of results) {
        const iv = r.liftInterval ? `[${r.liftInterval[0].toFixed(2)}, ${r.liftInterval[1].toFixed(2)}]` : '—';
        console.log(
          `  ${String(r.seed).padStart(4)}  ${r.heldOut.toFixed(3).padStart(8)}  ${(r.heldOut - r.initialHeldOut).toFixed(3).padStart(9)}  ${(r.reportedLift ?? 0).toFixed(3).padStart(8)}  ${iv.padEnd(14)}  ${String(r.trainingTargetCalls).padStart(12)}  ${String(r.callsTo95 ?? '—').padStart(7)}  ${String(r.optimizerCalls).padStart(15)}  ${String(r.accepts).padStart(7)}  ${r.shownBestValidation.toFixed(3).padStart(9)}  ${(r.bestValidationTruth?.toFixed(3) ?? '—').padStart(9)}`,
        );
      }
    }
  }
  // The agentic worlds: a tool-using agent, its ablation without trajectories beside it (bench-agentic.ts).
  for (const world of agenticWorlds) {
    const results: AgenticSeedResult[] = [];
    for (let i = 0; i < seeds.length; i += 2) results.push(...(await Promise.all(seeds.slice(i, i + 2).map((s) => agenticSeed(world, s, knobs, { noise })))));
    out[world] = aggregateAgentic(results);
    if (argv.includes('--table')) for (const line of agenticTable(world, String(out.mode), results)) console.log(line);
  }
  if (argv.includes('--table') && agenticWorlds.length > 1) for (const line of agenticSummary(agenticWorlds.map((w) => [w, out[w] as ReturnType<typeof aggregateAgentic>]))) console.log(line);
  // The agentic world's tools served by a real MCP server (bench-mcp.ts), and conversations
  // with simulated users (bench-simulated-user.ts).
  const hosted: [string, (s: number) => Promise<AgenticSeedResult>][] = [
    ...mcpWorlds.map((w) => [w, (s: number) => mcpSeed(w, s, knobs, { noise })] as [string, (s: number) => Promise<AgenticSeedResult>]),
    ...userWorlds.map((w) => [w, (s: number) => simulatedUserSeed(w, s, knobs, { noise })] as [string, (s: number) => Promise<AgenticSeedResult>]),
  ];
  for (const [world, train] of hosted) {
    const results: AgenticSeedResult[] = [];
    for (let i = 0; i < seeds.length; i += 2) results.push(...(await Promise.all(seeds.slice(i, i + 2).map(train))));
    out[world] = aggregateAgentic(results);
    if (argv.includes('--table')) for (const line of agenticTable(world, String(out.mode), results)) console.log(line);
  }
  // The stateful retail world beside its ablation without trajectories (bench-retail.ts).
  for (const world of retailWorlds) {
    const results: AgenticSeedResult[] = [];
    for (let i = 0; i < retailSeeds.length; i += 2)
      results.push(...(await Promise.all(retailSeeds.slice(i, i + 2).map((s) => retailSeed(world, s, knobs, { noise })))));
    out[world] = { seeds: results.length, ...aggregateAgentic(results), p10HeldOut: percentile(results.map((r) => r.heldOut), 0.1) };
    if (argv.includes('--table')) for (const line of agenticTable(world, String(out.mode), results)) console.log(line);
    console.log(retailLine(world, String(out.mode), results));
  }
  // The activation track's worlds: the description trained on trigger queries (bench-activation.ts).
  for (const world of activationWorlds) {
    const results = [];
    for (let i = 0; i < seeds.length; i += 2)
      results.push(...(await Promise.all(seeds.slice(i, i + 2).map((s) => activationSeed(world, s, knobs)))));
    out[world] = aggregateActivation(results);
    if (argv.includes('--table')) for (const line of activationTable(world, results)) console.log(line);
  }
  console.log(JSON.stringify(out));
  return 0;
}
