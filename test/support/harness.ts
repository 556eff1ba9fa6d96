/** A run wired for tests: the rule world's dataset, the real prompts, the real LLM client. */
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import { createLlmPort } from '../../src/llm/openai-client';
import { setMaxListeners } from 'node:events';
import type { EndpointConfig } from '../../src/llm/endpoint';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { runTraining, type ActivationInput, type TrainOutcome } from '../../src/engine/run/trainer';
import type { RunEvent } from '../../src/engine/events';
import type { RunDataset } from '../../src/engine/types';
import type { LlmPort, RunStore } from '../../src/engine/ports';
import type { ToolEnvironment } from '../../src/engine/environment';
import { makeWorldItems } from './rule-world';
import { loadPrompts } from './prompts';
import { testEndpoint } from './endpoints';

export const INITIAL_SKILL = '# Specimen codes\n\nAnswer with the specimen code.\n';

/** The world's items split 40/20/40 by ratio 2:1:2. */
export function worldDataset(n = 100, topics = 8): RunDataset {
  const r = importDatasetText(JSON.stringify(makeWorldItems(n, topics)), { ratio: [2, 1, 2], splitSeed: 7 });
  if (!r.ok) throw new Error('world dataset invalid');
  return { items: r.dataset.items, splits: r.dataset.splits };
}

export const SMALL_CONFIG: RunConfig = {
  ...DEFAULT_RUN_CONFIG,
  // The reference's edit budget: the engine tests' scenarios (a repair round, a tie, a plateau) were found at it.
  editBudget: 4,
  epochs: 2,
  batchSize: 20,
  minibatchSize: 5,
  mergeBatchSize: 3,
  slowUpdateSamples: 10,
  targetConcurrency: 4,
  optimizerConcurrency: 4,
};

/** What the quality bench trains with: the small scale, the product's own defaults otherwise (its edit budget). */
export const BENCH_CONFIG: RunConfig = { ...SMALL_CONFIG, editBudget: DEFAULT_RUN_CONFIG.editBudget };

export interface RunOptions {
  url: string;
  config?: Partial<RunConfig>;
  data?: RunDataset;
  store?: RunStore;
  runId?: string;
  signal?: AbortSignal;
  onEvent?: (e: RunEvent) => void;
  target?: Partial<EndpointConfig>;
  optimizer?: Partial<EndpointConfig>;
  prices?: Parameters<typeof runTraining>[0]['prices'];
  initialSkill?: string;
  /** Observe the real client's calls (e.g. count how many are under way); never replaces them. */
  wrapLlm?: (llm: LlmPort) => LlmPort;
  /** Trigger queries and the starting description, for the activation track. */
  activation?: ActivationInput;
  /** The host's environment for agents' tools (a module, MCP servers). */
  environment?: ToolEnvironment;
}

export async function trainOnce(o: RunOptions): Promise<{ outcome: TrainOutcome; store: RunStore; runId: string }> {
  const config = { ...SMALL_CONFIG, ...o.config };
  const store = o.store ?? new MemoryRunStore();
  const runId = o.runId ?? 'run-1';
  const client = createLlmPort(
    {
      target: testEndpoint(o.url, 'sim-target', { concurrency: config.targetConcurrency, ...o.target }),
      optimizer: testEndpoint(o.url, 'sim-optimizer', { concurrency: config.optimizerConcurrency, ...o.optimizer }),
    },
    { backoffBaseMs: 5, maxBackoffMs: 50 },
  );
  const llm = o.wrapLlm ? o.wrapLlm(client) : client;
  // Every in-flight SDK call listens on the run's signal; Node warns past 10 listeners.
  const ac = new AbortController();
  setMaxListeners(10_000, ac.signal);
  if (o.signal) {
    if (o.signal.aborted) ac.abort(o.signal.reason);
    o.signal.addEventListener('abort', () => ac.abort(o.signal!.reason), { once: true });
  }
  const outcome = await runTraining(
    {
      runId,
      config,
      data: o.data ?? worldDataset(),
      initialSkill: o.initialSkill ?? INITIAL_SKILL,
      prices: o.prices,
      ...(o.activation ? { activation: o.activation } : {}),
    },
    { llm, store, prompts: loadPrompts(config.promptOverrides), signal: ac.signal, onEvent: o.onEvent, environment: o.environment },
  );
  return { outcome, store, runId };
}
