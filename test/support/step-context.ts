// A run's context on the test server for engine tests that call one stage directly (a rollout, a
// check, a verdict), and the demo world's items by family.
import { SMALL_CONFIG } from './harness';
import { testEndpoint } from './endpoints';
import { loadPrompts } from './prompts';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { createContext } from '../../src/engine/context';
import { modelTarget } from '../../src/engine/target/model-target';
import { Meter } from '../../src/engine/meter';
import { parseQuestion, TOPICS } from '../../src/core/simulators/demo-world';
import type { RunConfig } from '../../src/core/config/run-config';
import type { RunDataset } from '../../src/engine/types';
import type { LlmPort } from '../../src/engine/ports';

/**
 * A fresh context (memory store, no prices) on the server at `url`, with SMALL_CONFIG and `config` over it;
 * `llm` when a test needs its own clients (a timed port, no retries).
 */
export function stepContext(
  url: string,
  runId: string,
  dataset: RunDataset,
  config: Partial<RunConfig> = {},
  llm: LlmPort = createLlmPort(
    { target: testEndpoint(url, 'sim-target'), optimizer: testEndpoint(url, 'sim-optimizer') },
    { backoffBaseMs: 1 },
  ),
) {
  return createContext({
    runId,
    config: { ...SMALL_CONFIG, ...config },
    llm,
    store: new MemoryRunStore(),
    prompts: loadPrompts(),
    items: dataset.items,
    meter: new Meter({}, {}),
    signal: new AbortController().signal,
    emit: () => {},
    now: () => Date.now(),
    target: modelTarget,
  });
}

/** The first `n` item ids of the demo world's family `t` in `data`. */
export function idsOfTopic(data: RunDataset, t: number, n: number): string[] {
  const topicOf = (question: string) => parseQuestion(question)?.topics.join('/');
  return data.items
    .filter((i) => topicOf(i.question) === TOPICS[t])
    .slice(0, n)
    .map((i) => i.id);
}
