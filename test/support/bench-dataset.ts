/**
 * `npm run bench:dataset` (issue #10 item 6): a ~99 MB JSON dataset handed to the worker API
 * over a real MessageChannel with Comlink, the way the Data screen does it — open the file,
 * change the three split shares, store it. Prints wall time and peak heap per phase (this one
 * process holds both the page's and the worker's side) and the bytes of dataset text that
 * crossed the channel. Options: --mb=N (default 99; the limit is 100), --json.
 */
import 'fake-indexeddb/auto';
import '../setup';
import * as Comlink from 'comlink';
import { createApi } from '../../src/worker/create-api';
import type { WorkerApi } from '../../src/worker/api-types';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { promptFiles } from './prompts';

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

/** JSON rows of about 1 kB each (a question, an answer and a shared background passage). */
export function bigDatasetText(bytes: number): string {
  const context = 'Background passage. '.repeat(40);
  const rows: string[] = [];
  let size = 4;
  for (let i = 0; size < bytes - 2048; i++) {
    const row = JSON.stringify({ id: `q${i}`, question: `What is item ${i}?`, answer: `a${i}`, context });
    rows.push(row);
    size += row.length + 2;
  }
  return `[\n${rows.join(',\n')}\n]`;
}

async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakHeapMb: number }> {
  gc?.();
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { value, ms: Math.round(performance.now() - t0), peakHeapMb: Math.round((peak - start) / MB) };
  } finally {
    clearInterval(timer);
  }
}

export async function main(argv: string[]): Promise<number> {
  const jsonOnly = argv.includes('--json');
  const mb = Number(argv.find((a) => a.startsWith('--mb='))?.split('=')[1] ?? 99);
  const file = new Blob([bigDatasetText(mb * MB)]);
  const db = await openSkillwrightDb('bench-dataset');
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(createApi({ db, promptFiles: promptFiles() }), port1);
  const remote = Comlink.wrap<WorkerApi>(port2);
  try {
    const shares: [number, number, number][] = [[3, 1, 7], [3, 2, 7], [3, 2, 6]];
    const open = await measured<Awaited<ReturnType<WorkerApi['stageDataset']>>>(() => remote.stageDataset(file, { fileName: 'big.json', ratio: [2, 1, 7] }));
    if (!open.value.ok || !open.value.draftId) throw new Error('staging failed');
    const draftId = open.value.draftId;
    // The page debounces share edits into one check per pause; each check is timed here.
    const edits = await measured(async () => {
      for (const ratio of shares) await remote.inspectStaged(draftId, { ratio });
    });
    const commit = await measured<Awaited<ReturnType<WorkerApi['commitStaged']>>>(() => remote.commitStaged(draftId, { name: 'big', ratio: shares[2] }));
    if (!commit.value.ok) throw new Error(commit.value.error.message);
    // Listing datasets reads the light index (schema v3), never the items: what the Train screen pays.
    const list = await measured(() => remote.listDatasets());
    const phases = [
      { phase: 'open (hand over the file, read, parse, first check)', ms: open.ms, peakHeapMb: open.peakHeapMb },
      { phase: `${shares.length} share edits (a check each)`, ms: edits.ms, peakHeapMb: edits.peakHeapMb },
      { phase: 'store (build under the last shares, write)', ms: commit.ms, peakHeapMb: commit.peakHeapMb },
      { phase: 'list datasets (the light index, schema v3)', ms: list.ms, peakHeapMb: list.peakHeapMb },
    ];
    const r = { fileMb: +(file.size / MB).toFixed(1), items: commit.value.dataset.counts, phases };
    if (!jsonOnly) {
      console.log(`Dataset staging: ${r.fileMb} MB JSON file; the file crosses as a Blob (no text copy), parsed once in the worker`);
      for (const p of phases) console.log(`${p.phase.padEnd(52)} ${String(p.ms).padStart(7)} ms   peak heap ${String(p.peakHeapMb).padStart(5)} MB`);
    }
    console.log(JSON.stringify(r));
    return 0;
  } finally {
    remote[Comlink.releaseProxy]();
    port1.close();
    port2.close();
  }
}
