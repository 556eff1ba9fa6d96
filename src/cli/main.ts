/**
 * `skillwright`, the headless runner (issue #22): the page's engine, prompts, run config, dataset
 * importer and scorers, run from a terminal or CI with a config file and a store on disk.
 *
 *   skillwright train  --config F [--data F] [--skill F] [--out DIR] [--dry-run] [--json] [--max-usd N] [--min-lift N]
 *   skillwright resume --out DIR [--bundle F --config F] [--json] [--max-usd N] [--min-lift N]
 *   skillwright estimate --config F [--data F] [--skill F]
 *   skillwright eval --config F [--skill F] [--data F] [--split test|val|train] [--json]
 *
 * `--skill` is a .md file, or a skill package: a folder or a .zip holding SKILL.md (cli/skill-files.ts).
 *
 * Exit codes: 0 a lift was accepted; 100 no lift (or below --min-lift); 3 paused (budget cap, error
 * rate, Ctrl-C) — the same command resumes; 2 a config or data problem; 1 anything else.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setMaxListeners } from 'node:events';
import { importDatasetText } from '../core/dataset-import';
import { formatProblem } from '../core/dataset-types';
import { validateAgainstSplits, type RunConfig } from '../core/run-config';
import { estimateCost } from '../engine/cost-estimate';
import { cliConfigSchema } from './config-schema';
import { rolloutTemplateOf } from '../engine/context';
import { buildPromptSet, type PromptSet } from '../engine/prompts';
import { runTraining, type TrainOutcome } from '../engine/run/trainer';
import type { RunEvent } from '../engine/events';
import { createLlmPort } from '../llm/openai-client';
import { parseBundle } from '../storage/bundle';
import type { DatasetRecord, RunEndpoints, RunRecord } from '../storage/schema';
import type { LlmPort } from '../engine/ports';
import { endpointConfig } from '../worker/handlers/context';
import { ConfigError, keysFromEnv, parseCliConfig, type CliConfig, type Env } from './config';
import { FileRunStore } from './file-store';
import { hostChanges, runDifferences } from './existing-run';
import { withOutLock } from './out-lock';
import { checkOutputs, writeOutputs } from './outputs';
import { trainInputOf } from '../storage/train-input';
import { readSkillInput, type SkillInput } from './skill-files';
import { PACKAGE_EVALS } from '../core/skill-package';
import { parseTriggerQueries, splitTriggerQueries, type TriggerQuery } from '../core/trigger-queries';
import { Progress } from './progress';
import { evaluateSkill } from '../engine/evaluate';
import { MemoryRunStore } from '../storage/memory-store';
import type { SplitName } from '../core/dataset-types';

export const EXIT = { lift: 0, failed: 1, config: 2, paused: 3, noLift: 100 } as const;

const OPTIONS = {
  config: { type: 'string' },
  data: { type: 'string' },
  skill: { type: 'string' },
  out: { type: 'string' },
  bundle: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  'max-usd': { type: 'string' },
  'min-lift': { type: 'string' },
  split: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const USAGE = `usage: skillwright train --config F [--data F] [--skill F] [--out DIR] [--dry-run] [--json] [--max-usd N] [--min-lift N]
       skillwright resume --out DIR [--bundle F --config F] [--json] [--max-usd N] [--min-lift N]
       skillwright estimate --config F [--data F] [--skill F]
       skillwright eval --config F [--skill F] [--data F] [--split test|val|train] [--json]
       skillwright schema   (the config's JSON Schema, for "$schema" in an editor)
Keys come from SKILLWRIGHT_TARGET_API_KEY, SKILLWRIGHT_OPTIMIZER_API_KEY, SKILLWRIGHT_JUDGE_API_KEY.`;

export interface CliIo {
  env: Env;
  /** Lines for a person (progress, reasons): standard error. */
  err: (text: string) => void;
  /** The result (one JSON line with --json): standard output. */
  out: (text: string) => void;
  /** Writes to the terminal without a line break; null when standard error is not a terminal. */
  rawErr: ((text: string) => void) | null;
  /** Resolves when the user asks to stop (Ctrl-C): the run pauses at its next checkpoint. */
  interrupted: Promise<void>;
  promptsDir: string;
  now: () => number;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(`Cannot read the ${what} ${path}.`);
  }
}

function numberOption(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`--${name} must be a number ≥ 0.`);
  return n;
}

function loadPrompts(dir: string, overrides: Record<string, string> | undefined): PromptSet {
  const files = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f.replace(/\.md$/, ''), readFileSync(join(dir, f), 'utf8')]),
  );
  return buildPromptSet(files, overrides);
}

/** The dataset and starting skill a `train` or `estimate` names, validated as the page does. */
function loadInputs(args: ReturnType<typeof parse>['values'], io: CliIo) {
  if (!args.config) throw new ConfigError('--config is required.');
  const configPath = resolve(args.config);
  const { config, warnings } = parseCliConfig(readText(configPath, 'config file'), args.config);
  warnings.forEach((w) => io.err(`warning: ${w}`));
  const base = dirname(configPath);
  const skillPath = args.skill ? resolve(args.skill) : config.skill ? resolve(base, config.skill) : null;
  const input: SkillInput = skillPath ? readSkillInput(skillPath) : { skill: '' };
  const dataPath = args.data ? resolve(args.data) : config.data ? resolve(base, config.data) : null;
  // A package's own evals/evals.json is the dataset when none is named.
  const fromPackage = !dataPath && input.evals !== undefined ? join(skillPath!, PACKAGE_EVALS) : null;
  if (!dataPath && !fromPackage)
    throw new ConfigError('No dataset: give --data, "data" in the config, or a skill package with evals/evals.json.');
  const dataName = dataPath ?? fromPackage!;
  const imported = importDatasetText(dataPath ? readText(dataPath, 'dataset') : input.evals!, {
    fileName: dataName,
    ...(config.split?.ratio ? { ratio: config.split.ratio } : {}),
    ...(config.split?.seed !== undefined ? { splitSeed: config.split.seed } : {}),
  });
  if (!imported.ok) {
    const shown = imported.problems.slice(0, 20).map((p) => `  ${formatProblem(p)}`);
    throw new ConfigError(
      `${dataName} has ${imported.problems.length}${imported.truncated ? '+' : ''} problem(s):\n${shown.join('\n')}`,
    );
  }
  if (fromPackage) io.err(`Dataset: ${fromPackage} (the package's own evals).`);
  const d = imported.dataset;
  const sizes = { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length };
  const problems = validateAgainstSplits(config.run, sizes);
  if (problems.length) throw new ConfigError(problems.map((p) => `run.${p.field}: ${p.message}`).join('; '));
  const dataset: DatasetRecord = {
    ...d,
    id: `ds-${d.items.length}-${sizes.train}`,
    name: dataPath ? (dataPath.split('/').pop() ?? 'dataset') : 'evals.json',
    createdAt: io.now(),
    fieldNames: imported.fieldNames,
  };
  return { config, dataset, skill: input.skill, input, sizes, triggers: loadTriggers(config, base, input) };
}

/** The activation track's queries (config "triggers", else the package's own), when the track is on. */
function loadTriggers(config: CliConfig, base: string, input: SkillInput): TriggerQuery[] | undefined {
  if (!config.run.activationTrack) return undefined;
  if (!input.shell)
    throw new ConfigError(
      'run.activationTrack trains a SKILL.md description: give a skill package (a folder or .zip holding SKILL.md) as the skill.',
    );
  const path = config.triggers ? resolve(base, config.triggers) : input.triggers?.path;
  if (!path)
    throw new ConfigError(
      'run.activationTrack needs trigger queries: "triggers" in the config, or evals/trigger-evals.json in the package.',
    );
  const parsed = parseTriggerQueries(config.triggers ? readText(path, 'trigger queries') : input.triggers!.text);
  if (!parsed.ok) throw new ConfigError(`${path}: ${parsed.problems.slice(0, 20).join('; ')}`);
  return parsed.queries;
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

/** Run the CLI; returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(argv);
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return EXIT.config;
  }
  const [command] = args.positionals;
  if (args.values.help || !command) {
    io.err(USAGE);
    return command ? EXIT.lift : EXIT.config;
  }
  try {
    // Checked before anything is read or spent, not when the run is over.
    numberOption(args.values['min-lift'], 'min-lift');
    numberOption(args.values['max-usd'], 'max-usd');
    if (command === 'schema') {
      io.out(JSON.stringify(cliConfigSchema(), null, 2));
      return EXIT.lift;
    }
    if (command === 'estimate') return estimate(args.values, io);
    if (command === 'train') return await train(args.values, io);
    if (command === 'resume') return await resume(args.values, io);
    if (command === 'eval') return await evaluate(args.values, io);
    throw new ConfigError(`Unknown command "${command}".\n${USAGE}`);
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(`error: ${e.message}`);
      return EXIT.config;
    }
    io.err(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.failed;
  }
}

function estimate(values: ReturnType<typeof parse>['values'], io: CliIo): number {
  const { config, dataset, skill, sizes, triggers } = loadInputs(values, io);
  const prompts = loadPrompts(io.promptsDir, config.run.promptOverrides);
  const tsplit = triggers && splitTriggerQueries(triggers, config.run.seed);
  const batchOneShot = Boolean(config.endpoints.target.batchApi);
  const template = rolloutTemplateOf(config.run, prompts);
  const e = estimateCost({
    config: config.run,
    items: dataset.items,
    splits: sizes,
    skill,
    template,
    prompts,
    prices: config.prices,
    batchOneShot,
    ...(tsplit ? { triggers: { train: tsplit.train.length, val: tsplit.val.length, test: tsplit.test.length } } : {}),
  });
  const cost = e.totalCostUsd === null ? 'unknown (set "prices" in the config)' : `$${e.totalCostUsd.toFixed(2)}`;
  io.err(`Estimate: ${e.totalCalls} calls, ${e.totalTokens.toLocaleString('en-US')} tokens, cost ${cost}.`);
  for (const [stage, s] of Object.entries(e.stages))
    if (s) io.err(`  ${stage.padEnd(16)} ${String(s.calls).padStart(7)} calls`);
  if (batchOneShot) io.err('  baseline, final validation and test through the target’s batch API, at half price');
  const stages = Object.fromEntries(
    Object.entries(e.stages).map(([k, s]) => [k, { calls: s?.calls, costUsd: s?.costUsd }]),
  );
  if (values.json)
    io.out(JSON.stringify({ calls: e.totalCalls, tokens: e.totalTokens, costUsd: e.totalCostUsd, stages }));
  return EXIT.lift;
}

const storePath = (out: string) => join(out, 'run.jsonl');

/** The LLM port of a run's endpoints, each with the key the environment holds for it. */
function llmPortFor(endpoints: RunEndpoints, c: RunConfig, io: CliIo): LlmPort {
  const keys = keysFromEnv(endpoints, io.env);
  return createLlmPort({
    target: endpointConfig(endpoints.target, keys.target, c.targetConcurrency, 'target'),
    optimizer: endpointConfig(endpoints.optimizer, keys.optimizer, c.optimizerConcurrency, 'optimizer'),
    ...(endpoints.judge && keys.judge
      ? { judge: endpointConfig(endpoints.judge, keys.judge, c.optimizerConcurrency, 'judge') }
      : {}),
  });
}

/** An abort signal that Ctrl-C trips: the engine pauses at its next checkpoint. */
function stopOnInterrupt(io: CliIo, say?: string): AbortController {
  const controller = new AbortController();
  setMaxListeners(100_000, controller.signal); // one listener per call in flight
  void io.interrupted.then(() => {
    if (say) io.err(say);
    controller.abort('pause');
  });
  return controller;
}

/** Score one skill (--skill, else the config's, else none) on a split, without training. */
async function evaluate(values: ReturnType<typeof parse>['values'], io: CliIo): Promise<number> {
  const split = (values.split ?? 'test') as SplitName;
  if (!['train', 'val', 'test'].includes(split)) throw new ConfigError('--split must be train, val or test.');
  const { config, dataset, skill } = loadInputs(values, io);
  const c = config.run;
  const llm = llmPortFor(config.endpoints, c, io);
  const controller = stopOnInterrupt(io);
  const progress = new Progress(io.err, io.rawErr);
  const r = await evaluateSkill(
    {
      skill,
      split,
      limit: 0,
      config: c,
      data: { items: dataset.items, splits: dataset.splits },
      prices: config.prices,
    },
    {
      llm,
      store: new MemoryRunStore(),
      prompts: loadPrompts(io.promptsDir, c.promptOverrides),
      signal: controller.signal,
      onEvent: (e) => progress.event(e),
      now: io.now,
    },
  );
  progress.done();
  if (!r.ok) {
    io.err(`Stopped: ${r.reason}`);
    return EXIT.paused;
  }
  io.err(
    `${split}: ${(r.hard * 100).toFixed(1)}% correct, partial credit ${(r.soft * 100).toFixed(1)}%, on ${r.n} items${r.errors ? ` (${r.errors} errored, not scored)` : ''}; cost $${r.costUsd.toFixed(4)}.`,
  );
  if (values.json)
    io.out(JSON.stringify({ split, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, costUsd: r.costUsd }));
  return EXIT.lift;
}

async function train(values: ReturnType<typeof parse>['values'], io: CliIo): Promise<number> {
  const out = resolve(values.out ?? 'skillwright-out');
  const { config, dataset, skill, input, triggers } = loadInputs(values, io);
  const maxUsd = numberOption(values['max-usd'], 'max-usd');
  const runConfig =
    maxUsd !== undefined ? { ...config.run, budget: { ...config.run.budget, usd: maxUsd } } : config.run;
  if (values['dry-run']) return estimate(values, io);
  keysFromEnv(config.endpoints, io.env); // before anything is written
  return withOutLock(out, async () => {
    const t = io.now();
    const run: RunRecord = {
      id: `cli-${t.toString(36)}`,
      name: config.name ?? `${dataset.name} · ${config.endpoints.target.model}`,
      datasetId: dataset.id,
      createdAt: t,
      updatedAt: t,
      status: 'idle',
      config: runConfig,
      initialSkill: skill,
      endpoints: config.endpoints,
      prices: config.prices,
      ...(input.shell ? { skillPackage: input.shell } : {}),
      ...(input.meta ? { skillMeta: { name: input.meta.name ?? '', description: input.meta.description ?? '' } } : {}),
      ...(triggers ? { triggerQueries: triggers } : {}),
    };
    // A run in the out folder is continued by the same command — only if it is this command's run.
    const existing = existsSync(storePath(out)) ? FileRunStore.open(storePath(out)) : null;
    if (existing?.run) {
      const stored = existing.run;
      const hosts = hostChanges(stored.endpoints, run.endpoints);
      const named = `${out} holds run ${stored.id} ("${stored.name}")`;
      if (hosts.length)
        throw new ConfigError(
          `${named}, made against other hosts than your config names (${hosts.join('; ')}); keys go only to hosts your config names. Choose another --out for a new run.`,
        );
      const differs = runDifferences({ run: stored, dataset: existing.dataset }, { run, dataset });
      if (differs.length)
        throw new ConfigError(
          `${named}, which this command would not start: ${differs.join(', ')} differ. Choose another --out for a new run, or continue that one with: skillwright resume --out ${out}`,
        );
      io.err(`Continuing the run in ${out}.`);
      // Bound to this config's endpoints and prices (on the same hosts), under this command's cap.
      existing.write({ t: 'run', v: { ...stored, endpoints: run.endpoints, prices: run.prices } });
      return continueRun(existing, out, values, io, runConfig.budget);
    }
    const store = FileRunStore.open(storePath(out));
    store.write({ t: 'run', v: run });
    store.write({ t: 'dataset', v: dataset });
    return execute(store, out, values, io);
  });
}

async function resume(values: ReturnType<typeof parse>['values'], io: CliIo): Promise<number> {
  const out = resolve(values.out ?? 'skillwright-out');
  if (!values.bundle && !existsSync(storePath(out)))
    throw new ConfigError(`No run in ${out} (${storePath(out)} is missing).`);
  return withOutLock(out, async () => {
    if (values.bundle) {
      const parsed = parseBundle(readText(resolve(values.bundle), 'run bundle'));
      if (!parsed.ok) throw new ConfigError(parsed.error);
      if (!parsed.bundle.dataset)
        throw new ConfigError('The bundle holds no dataset: export the run again with its dataset.');
      if (existsSync(storePath(out))) throw new ConfigError(`${out} already holds a run; choose another --out.`);
      // A bundle's endpoints are whoever exported it: the run is bound to this config's endpoints
      // and prices, so a key goes only to hosts the user's own config names (as on the page).
      if (!values.config)
        throw new ConfigError('--bundle needs --config: the run continues on the endpoints your config names.');
      const { config } = parseCliConfig(readText(resolve(values.config), 'config file'), values.config);
      keysFromEnv(config.endpoints, io.env);
      const store = FileRunStore.fromBundle(storePath(out), parsed.bundle);
      store.write({ t: 'run', v: { ...store.run!, endpoints: config.endpoints, prices: config.prices } });
    }
    const store = FileRunStore.open(storePath(out));
    const maxUsd = numberOption(values['max-usd'], 'max-usd');
    const budget = store.run && maxUsd !== undefined ? { ...store.run.config.budget, usd: maxUsd } : undefined;
    return continueRun(store, out, values, io, budget);
  });
}

/** Continue the run of a store (under a new budget cap, when one is given), or report a finished one. */
async function continueRun(
  store: FileRunStore,
  out: string,
  values: ReturnType<typeof parse>['values'],
  io: CliIo,
  budget?: RunConfig['budget'],
): Promise<number> {
  if (!store.run || !store.dataset) throw new ConfigError(`${storePath(out)} holds no run and dataset.`);
  if (store.run.status === 'completed' || store.run.status === 'cancelled') {
    io.err(`The run in ${out} is ${store.run.status}; its outputs are there.`);
    return report(store, out, values, io, { status: store.run.status, summary: (await store.loadState())?.summary });
  }
  if (budget && JSON.stringify(budget) !== JSON.stringify(store.run.config.budget)) {
    const config = { ...store.run.config, budget };
    store.write({ t: 'run', v: { ...store.run, config } });
    const state = await store.loadState();
    if (state) store.write({ t: 'state', v: { ...state, config } });
  }
  return execute(store, out, values, io);
}

async function execute(
  store: FileRunStore,
  out: string,
  values: ReturnType<typeof parse>['values'],
  io: CliIo,
): Promise<number> {
  const run = store.run!;
  const dataset = store.dataset!;
  const c = run.config;
  await checkOutputs(store, out, new Date(io.now()).toISOString()); // before anything is spent
  const llm = llmPortFor(run.endpoints, c, io);
  const controller = stopOnInterrupt(io, 'Pausing at the next checkpoint… (the same command resumes)');
  const progress = new Progress(io.err, io.rawErr);
  const outcome = await runTraining(trainInputOf(run, dataset, c), {
    llm,
    store,
    prompts: loadPrompts(io.promptsDir, c.promptOverrides),
    signal: controller.signal,
    onEvent: (e: RunEvent) => progress.event(e),
    now: io.now,
  });
  progress.done();
  return report(store, out, values, io, outcome);
}

/** Write the outputs, say what happened, and choose the exit code. */
async function report(
  store: FileRunStore,
  out: string,
  values: ReturnType<typeof parse>['values'],
  io: CliIo,
  outcome: TrainOutcome,
): Promise<number> {
  const state = await store.loadState();
  const a = state?.activation;
  const s = outcome.summary;
  const written = await writeOutputs(store, out, s, new Date(io.now()).toISOString());
  const test = (k: string) => s?.tests.find((t) => t.skill === k)?.hard;
  const lift = s?.lift
    ? s.lift.estimate
    : test('best') !== undefined && test('initial') !== undefined
      ? test('best')! - test('initial')!
      : null;
  const minLift = numberOption(values['min-lift'], 'min-lift') ?? 0;
  // Without a test split there is no lift to check: an accepted step is the gain.
  const lifted = outcome.status === 'completed' && (s?.accepts ?? 0) > 0 && (lift === null || lift > minLift);
  const summary = {
    status: outcome.status,
    reason: outcome.reason ?? null,
    accepted: s?.accepts ?? 0,
    baseline: s?.baselineSelection ?? state?.baselineScore ?? null,
    best: s?.bestSelection ?? state?.gate.bestScore ?? null,
    testInitial: test('initial') ?? null,
    testBest: test('best') ?? null,
    lift,
    liftInterval: s?.lift?.interval ?? null,
    costUsd: s?.totalCostUsd ?? null,
    ...(a
      ? {
          activation: {
            initialDescription: a.initialDescription,
            description: a.description,
            validation: { initial: a.baselineScore, best: a.score },
            test: a.test ?? null,
          },
        }
      : {}),
    out,
  };
  if (outcome.status === 'completed') {
    io.err(
      `Done: ${summary.accepted} step(s) accepted; validation ${fmt(summary.baseline)} → ${fmt(summary.best)}${lift !== null ? `; test lift ${(lift * 100).toFixed(1)} points` : ''}.`,
    );
    io.err(
      `Best skill: ${written.join(' and ')} · report: ${join(out, 'report.html')} · run bundle (import it on the Runs screen): ${join(out, 'run-bundle.json')}`,
    );
  } else io.err(`${outcome.status}: ${outcome.reason ?? ''}`);
  if (values.json) io.out(JSON.stringify(summary));
  if (outcome.status === 'paused' || outcome.status === 'interrupted') return EXIT.paused;
  if (outcome.status === 'completed') return lifted ? EXIT.lift : EXIT.noLift;
  return EXIT.failed;
}

const fmt = (v: number | null) => (v === null ? '—' : v.toFixed(3));
