// Figures issue #4 asks for, measured on fake-indexeddb in Node (a real browser's IndexedDB is
// faster at bulk reads): checkpoint rows written per step, the size of a run bundle, and how
// long a run with 10 000 rollouts takes to open with its first page of steps.
import 'fake-indexeddb/auto';
import { parseBundle } from '../../src/storage/bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { newRun, openTab } from '../support/api-harness';
import { putRun } from '../../src/storage/runs-repo';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { RolloutRow, StepRecord } from '../../src/engine/types';

let srv: LlmTestServer;
const figures: Record<string, unknown> = {};
beforeAll(async () => {
  srv = await startLlmServer();
});
afterAll(async () => {
  await srv.close();
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/storage-figures.json', JSON.stringify(figures, null, 2));
  console.log('storage figures', JSON.stringify(figures));
});

describe('storage figures', () => {
  it('rows written per step and the bundle size of a 2-epoch run on 100 items', async () => {
    const tab = await openTab();
    const runId = await newRun(tab.remote, srv.url, { epochs: 2 });
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: srv.url, optimizer: srv.url } }, false);
    expect(await tab.remote.startRun(runId)).toMatchObject({ status: 'completed' });
    const counts: Record<string, number> = {};
    for (const s of ['steps', 'skills', 'rollouts', 'calls', 'artifacts'] as const) counts[s] = await tab.db.countFromIndex(s, 'by-run', runId);
    const steps = counts.steps;
    const stepRows = (await tab.db.getAllFromIndex('rollouts', 'by-run', runId)).filter((r) => /^s\d+\//.test(r.phase)).length;
    const stepCalls = (await tab.db.getAllFromIndex('calls', 'by-run', runId)).filter((c) => /^s\d+\//.test(c.key)).length;
    const stepArtifacts = (await tab.db.getAllFromIndex('artifacts', 'by-run', runId)).filter((a) => /^s\d+\//.test(a.key)).length;
    figures.rowsPerStep = { rollouts: stepRows / steps, optimizerCalls: stepCalls / steps, artifacts: stepArtifacts / steps, stepRecord: 1, runState: 1, total: (stepRows + stepCalls + stepArtifacts) / steps + 2 };
    figures.runRows = counts;
    const exported = await tab.remote.exportRun(runId);
    if (!exported.ok) throw new Error('export failed');
    figures.bundleBytes = exported.bytes;
    figures.bundleGzipBytes = (await new Response(exported.file.stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer()).byteLength;
    // The bundle holds every row the run stored, and its size is what was counted.
    const text = await exported.file.text();
    expect(new TextEncoder().encode(text).byteLength).toBe(exported.bytes);
    const parsed = parseBundle(text);
    if (!parsed.ok) throw new Error(parsed.error);
    const b = parsed.bundle;
    expect({ steps: b.steps.length, skills: b.skills.length, rollouts: b.rollouts.length, calls: b.calls.length, artifacts: b.artifacts.length }).toEqual(counts);
    tab.close();
  }, 60_000);

  it('opens a run with 10 000 rollouts and its first page of steps in under a second', async () => {
    const tab = await openTab();
    const runId = 'big-run';
    await putRun(tab.db, {
      id: runId, name: 'big', datasetId: 'none', createdAt: 0, updatedAt: 0, status: 'completed', config: DEFAULT_RUN_CONFIG,
      initialSkill: '# s', endpoints: { target: { baseURL: 'http://x/v1', model: 't' }, optimizer: { baseURL: 'http://x/v1', model: 'o' } }, prices: {},
    });
    const tx = tab.db.transaction(['rollouts', 'steps'], 'readwrite');
    for (let i = 0; i < 10_000; i++) {
      const step = Math.floor(i / 200) + 1;
      const row: RolloutRow = {
        runId, phase: `s${String(step).padStart(4, '0')}/${i % 200 < 40 ? 'rollout' : 'gate'}`, order: i % 200, itemId: `q${i % 500}`, skillHash: `h${step}`,
        cacheKey: `h${step}|q${i % 500}|t`, status: 'ok', response: 'Reasoning about the question.\n<answer>ABC-123</answer>'.repeat(3), predicted: 'ABC-123',
        hard: i % 3 ? 1 : 0, soft: 0.5, usage: { promptTokens: 900, completionTokens: 40, reasoningTokens: 0 }, latencyMs: 800, cached: false,
      };
      void tx.objectStore('rollouts').put(row);
    }
    for (let s = 1; s <= 50; s++) void tx.objectStore('steps').put({ runId, step: s, epoch: 1, action: 'reject' } as StepRecord);
    await tx.done;
    const t0 = performance.now();
    const run = await tab.remote.getRun(runId);
    const page = await tab.remote.getSteps(runId, 0, 25);
    const detail = await tab.remote.getStepDetail(runId, 1);
    const ms = performance.now() - t0;
    expect(run.ok).toBe(true);
    expect(page.steps).toHaveLength(25);
    expect(page.total).toBe(50);
    expect(detail.ok && detail.detail.rollouts.length + detail.detail.gateRollouts.length).toBe(200);
    figures.open10kRolloutRunMs = Math.round(ms);
    expect(ms).toBeLessThan(1000);
    tab.close();
  }, 60_000);
});
