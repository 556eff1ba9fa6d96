/**
 * `npm run bench:scale` (issue #9 item 21): a 5 000-item dataset and a 100 kB skill. The
 * engine runs the baseline (1 000 validation rollouts) and one full step on IndexedDB
 * (fake-indexeddb in Node) against the test server in its own process; then the run is
 * exported to a file and read back. Prints wall time and the engine process's peak heap per
 * phase, as a table and as JSON on the last line. Then a stored 1 000-step run with 5 000-line
 * skills: its report, its blame and a step's inspector (bench-history.ts). Options: --json, --latency=MS (default 20).
 * The script runs Node with --expose-gc, so heap figures are live memory (see sampleHeap).
 */
import 'fake-indexeddb/auto';
import '../setup';
import { setMaxListeners } from 'node:events';
import { createLlmPort } from '../../src/llm/openai-client';
import { runTraining } from '../../src/engine/run/trainer';
import { IdbRunStore } from '../../src/storage/idb-run-store';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { putRun } from '../../src/storage/runs-repo';
import { parseBundle } from '../../src/storage/bundle';
import { exportRunFile } from './bundle-file';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { loadPrompts } from './prompts';
import { testEndpoint } from './endpoints';
import { INITIAL_SKILL, worldDataset } from './harness';
import { startServerProcess } from './bench';
import { benchHistory } from './bench-history';

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

/** Live JavaScript memory: the heap and the array buffers outside it (typed arrays live there). */
const liveBytes = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/**
 * The heap a phase keeps alive: with --expose-gc each sample collects garbage first (every
 * 100 ms), so the figure is live memory, not how far the collector let garbage pile up.
 */
function sampleHeap(onSample: (bytes: number) => void): () => void {
  const timer = setInterval(() => {
    gc?.();
    onSample(liveBytes());
  }, gc ? 100 : 10);
  return () => clearInterval(timer);
}

/** A 100 kB skill: the starting rules plus a long house-style section the target must carry. */
export function bigSkill(chars = 100_000): string {
  const lines = [INITIAL_SKILL.trim(), '', '## House style'];
  for (let i = 1; lines.join('\n').length < chars; i++) lines.push(`- Style note ${i}: keep the answer to the code itself, with no surrounding words or punctuation.`);
  return lines.join('\n') + '\n';
}

/** Peak live heap (MB above the starting heap) while `fn` runs. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakHeapMb: number }> {
  gc?.();
  const start = liveBytes();
  let peak = start;
  const stop = sampleHeap((b) => (peak = Math.max(peak, b)));
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, liveBytes());
    return { value, ms: performance.now() - t0, peakHeapMb: (peak - start) / MB };
  } finally {
    stop();
  }
}

export async function main(argv: string[]): Promise<number> {
  const jsonOnly = argv.includes('--json');
  const latencyMs = Number(argv.find((a) => a.startsWith('--latency='))?.split('=')[1] ?? 20);
  const { url, child } = await startServerProcess(latencyMs, 0);
  try {
    const data = worldDataset(5_000);
    const skill = bigSkill();
    const config = { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 40, minibatchSize: 8, targetConcurrency: 8, optimizerConcurrency: 8, evalTest: false };
    const db = await openSkillwrightDb('bench-scale');
    const runId = 'scale';
    await putRun(db, {
      id: runId, name: 'scale', datasetId: 'none', createdAt: 0, updatedAt: 0, status: 'idle', config, initialSkill: skill,
      endpoints: { target: { baseURL: url, model: 'sim-target' }, optimizer: { baseURL: url, model: 'sim-optimizer' } }, prices: {},
    });
    const llm = createLlmPort({ target: testEndpoint(url, 'sim-target', { concurrency: 8, timeoutMs: 60_000 }), optimizer: testEndpoint(url, 'sim-optimizer', { concurrency: 8, timeoutMs: 60_000 }) }, { backoffBaseMs: 50 });
    const ac = new AbortController();
    setMaxListeners(10_000, ac.signal);
    const marks: { phase: string; at: number; heap: number }[] = [];
    let peak = 0;
    const stopSampling = sampleHeap((b) => (peak = Math.max(peak, b)));
    const mark = (phase: string) => {
      marks.push({ phase, at: performance.now(), heap: peak });
      peak = 0;
    };
    gc?.();
    const heap0 = liveBytes();
    mark('start');
    const run = await runTraining(
      { runId, config, data, initialSkill: skill },
      {
        llm, store: new IdbRunStore(db), prompts: loadPrompts(), signal: ac.signal,
        // One step is enough to see every stage at scale: pause the run after it.
        onEvent: (e) => {
          if (e.type === 'baseline') mark('baseline (validation rollouts)');
          if (e.type === 'step') {
            mark('step 1 (rollout, reflect, merge, rank, check, gate)');
            ac.abort();
          }
        },
      },
    );
    stopSampling();
    const exported = await measured(() => exportRunFile(db, runId));
    const file = exported.value!;
    const read = await measured(async () => parseBundle(await file.text()));
    if (!read.value.ok) throw new Error(read.value.error);
    const phases = marks.slice(1).map((m, i) => ({ phase: m.phase, ms: Math.round(m.at - marks[i].at), peakHeapMb: Math.round((m.heap - heap0) / MB) }));
    phases.push({ phase: `export (${(file.size / MB).toFixed(1)} MB file)`, ms: Math.round(exported.ms), peakHeapMb: Math.round(exported.peakHeapMb) });
    phases.push({ phase: 'import: read and validate the file', ms: Math.round(read.ms), peakHeapMb: Math.round(read.peakHeapMb) });
    phases.push(...(await benchHistory(measured)));
    const r = {
      dataset: { items: data.items.length, train: data.splits.train.length, val: data.splits.val.length, test: data.splits.test.length },
      skillChars: skill.length,
      latencyMs,
      outcome: run.status,
      rolloutRows: read.value.bundle.rollouts.length,
      optimizerCalls: read.value.bundle.calls.length,
      bundleBytes: file.size,
      phases,
    };
    if (!jsonOnly) {
      console.log(`Scale: ${r.dataset.items} items (${r.dataset.train}/${r.dataset.val}/${r.dataset.test}), skill ${(skill.length / 1000).toFixed(0)} kB, latency ${latencyMs} ms, concurrency 8`);
      console.log('phase                                                  wall ms   peak live heap MB (above start)');
      for (const p of phases) console.log(`${p.phase.padEnd(54)} ${String(p.ms).padStart(8)}   ${String(p.peakHeapMb).padStart(6)}`);
      console.log(`${r.rolloutRows} rollout rows, ${r.optimizerCalls} optimizer calls stored; run ${r.outcome} after step 1`);
    }
    console.log(JSON.stringify(r));
    return 0;
  } finally {
    child.kill();
  }
}
