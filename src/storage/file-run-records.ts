/**
 * The run service's store on the runner's file (`file-store.ts`): one `--out` folder, one run.
 * The file is replayed into memory when opened, so every read is a look-up; rows come out in
 * their keys' order, as IndexedDB gives them, so the two hosts' bundles and reports agree.
 */
import type { RunBundle } from './bundle';
import type { FileRunStore } from './file-store';
import type { DatasetRecord, RunRecord, RunRowKind, RunRows } from './schema';

export class FileRunRecords {
  constructor(readonly store: FileRunStore) {}

  /** The run record with its state inside, as the page stores it. */
  async getRun(runId: string) {
    const run = this.store.run;
    if (!run || run.id !== runId) return undefined;
    const state = await this.store.loadState();
    return { ...structuredClone(run), ...(state ? { state } : {}) };
  }

  async putRun(run: RunRecord) {
    const { state, ...record } = run;
    this.store.write({ t: 'run', v: record });
    if (state) this.store.write({ t: 'state', v: state });
  }

  async getDataset(id: string) {
    const d = this.store.dataset;
    return d && d.id === id ? structuredClone(d) : undefined;
  }

  async putDataset(d: DatasetRecord) {
    this.store.write({ t: 'dataset', v: d });
  }

  async datasetName(id: string) {
    return this.store.dataset?.id === id ? this.store.dataset.name : undefined;
  }

  runStore(_runId: string) {
    return this.store;
  }

  async getStep(_runId: string, step: number) {
    return this.store.rows('steps').find((s) => s.step === step);
  }

  getSteps(_runId: string) {
    return this.store.getSteps();
  }

  getSkillVersions(_runId: string) {
    return this.store.getSkillVersions();
  }

  getRollouts(runId: string, phase: string) {
    return this.store.getRollouts(runId, phase);
  }

  async skillRows(_runId: string, skillHash: string) {
    return this.store.rows('rollouts').filter((r) => r.skillHash === skillHash);
  }

  async callsUnder(_runId: string, prefix: string) {
    return this.store.rows('calls').filter((c) => c.key.startsWith(prefix));
  }

  async artifactsUnder(_runId: string, prefix: string) {
    return this.store.rows('artifacts').filter((a) => a.key.startsWith(prefix));
  }

  async *rowPages<K extends RunRowKind>(_runId: string, kind: K, size: number): AsyncIterable<RunRows[K][]> {
    const rows = this.store.rows(kind);
    for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
  }

  async importBundle(bundle: RunBundle) {
    if (this.store.run) return { ok: false as const, error: `${this.store.path} already holds a run.` };
    this.store.holdBundle(bundle);
    return { ok: true as const, runId: bundle.run.id, renamed: false };
  }
}
