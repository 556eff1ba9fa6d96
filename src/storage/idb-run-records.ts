/**
 * The run service's store on IndexedDB (the page): run records, datasets and each run's rows,
 * read through the schema's indexes — a step's calls and artifacts by key range, a skill's rows
 * by the skill-item index, a bundle's rows a page at a time by primary key.
 */
import type { SkillwrightDb } from './open-db';
import { importBundle, storedEndpoints, type RunBundle } from './bundle';
import { IdbRunStore } from './idb-run-store';
import { getRun, putRun } from './runs-repo';
import { getDataset, getDatasetIndex, putDataset } from './datasets-repo';
import type { DatasetRecord, RunRecord, RunRowKind, RunRows } from './schema';

/** Every key of a run's stores starts with the run id; [runId, []] sorts after all of them. */
const upperOf = (runId: string): IDBValidKey => [runId, []];

export class IdbRunRecords {
  constructor(
    private readonly db: SkillwrightDb,
    private readonly estimate?: () => Promise<{ usage?: number; quota?: number }>,
  ) {}

  getRun(runId: string) {
    return getRun(this.db, runId);
  }

  /** The browser never stores a header that carries a credential: keys live in the vault only. */
  putRun(run: RunRecord) {
    return putRun(this.db, { ...run, endpoints: storedEndpoints(run.endpoints) });
  }

  getDataset(id: string) {
    return getDataset(this.db, id);
  }

  putDataset(d: DatasetRecord) {
    return putDataset(this.db, d);
  }

  async datasetName(id: string) {
    return (await getDatasetIndex(this.db, id))?.name;
  }

  runStore(_runId: string) {
    return new IdbRunStore(this.db, this.estimate);
  }

  getStep(runId: string, step: number) {
    return this.db.get('steps', [runId, step]);
  }

  getSteps(runId: string) {
    return this.db.getAll('steps', IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]));
  }

  async getSkillVersions(runId: string) {
    return new IdbRunStore(this.db).getSkillVersions(runId);
  }

  getRollouts(runId: string, phase: string) {
    return this.db.getAllFromIndex('rollouts', 'by-run-phase', [runId, phase]);
  }

  skillRows(runId: string, skillHash: string) {
    // One range read of the skill's rows, not one read per item (issue #20 item 17).
    const range = IDBKeyRange.bound([runId, skillHash, ''], [runId, skillHash, '\uffff']);
    return this.db.getAllFromIndex('rollouts', 'by-skill-item', range);
  }

  callsUnder(runId: string, prefix: string) {
    return this.db.getAll('calls', IDBKeyRange.bound([runId, prefix], [runId, `${prefix}\uffff`]));
  }

  artifactsUnder(runId: string, prefix: string) {
    return this.db.getAll('artifacts', IDBKeyRange.bound([runId, prefix], [runId, `${prefix}\uffff`]));
  }

  async *rowPages<K extends RunRowKind>(runId: string, kind: K, size: number): AsyncIterable<RunRows[K][]> {
    const upper = upperOf(runId);
    let range = IDBKeyRange.bound([runId], upper);
    const keyPath = this.db.transaction(kind).store.keyPath as string[];
    for (;;) {
      const page = (await this.db.getAll(kind, range, size)) as RunRows[K][];
      if (page.length) yield page;
      if (page.length < size) return;
      // The next page starts after the last row's primary key (the store's own key path).
      const last = page[page.length - 1] as unknown as Record<string, IDBValidKey>;
      range = IDBKeyRange.bound(
        keyPath.map((k) => last[k]),
        upper,
        true,
      );
    }
  }

  importBundle(bundle: RunBundle, newId: () => string) {
    return importBundle(this.db, bundle, newId);
  }
}
