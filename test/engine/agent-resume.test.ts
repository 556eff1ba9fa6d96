import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { killAndResume, referenceRun, type World } from '../support/resume-harness';
import { DOUBLE, LOOKUP, UNITS_REFERENCE, toolWorldFile, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { bundlePackage } from '../../src/core/skill/skill-package';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
});
afterAll(() => server.close());

function world(): World {
  const r = importDatasetText(toolWorldFile(40));
  if (!r.ok) throw new Error('tool world invalid');
  return {
    server: () => server,
    config: {
      ...DEFAULT_RUN_CONFIG,
      epochs: 1,
      batchSize: 8,
      minibatchSize: 4,
      mergeBatchSize: 3,
      slowUpdateSamples: 8,
      referencesOnDemand: true,
      maxTurns: 4,
      targetConcurrency: 3,
      optimizerConcurrency: 3,
      noiseProbe: 4,
    },
    data: { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools },
    initialSkill: bundlePackage(`# Parts\n\n${LOOKUP}\n${DOUBLE}\n`, [{ path: 'references/units.md', text: UNITS_REFERENCE }]),
  };
}

describe('an agent\'s run killed mid-trajectory (issue #30)', () => {
  it('resumes at its last turn or tool result and ends exactly as an uninterrupted run', async () => {
    const w = world();
    const targetCalls = () => server.log.filter((e) => e.stage === 'target' && e.status === 200).length;
    server.log.length = 0;
    const ref = await referenceRun(w);
    const refCalls = targetCalls();
    const turns = ref.writeLog.map((e, i) => [e, i + 1] as const).filter(([e]) => e.startsWith('putArtifact:trajectory/'));
    expect(turns.length).toBeGreaterThan(10);
    // After a model turn asked for a call (its answer not yet stored), after a tool result, and late in a step.
    const points = [turns[0][1], turns[1][1], turns[Math.floor(turns.length / 2)][1]];
    for (const limit of points) {
      server.log.length = 0;
      await killAndResume(w, ref, limit);
      // A resumed trajectory asks no finished turn again: only the calls in flight at the kill repeat.
      expect(targetCalls() - refCalls, `kill after write ${limit}`).toBeLessThanOrEqual(w.config.targetConcurrency);
    }
  }, 120_000);
});
