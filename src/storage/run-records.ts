/**
 * The run service's store (DESIGN §7b): run records and their datasets, each run's engine store
 * (the engine's `RunStore`), and the reads the read models — step records, blame, the report,
 * the bundle — are written over once. Two adapters: IndexedDB for the page
 * (`idb-run-records.ts`) and a file per run for the runner (`file-run-records.ts`).
 */
import type { RunStore } from '../engine/ports';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, SkillVersion, StepRecord } from '../engine/types';
import type { ImportResult, RunBundle } from './bundle';
import type { DatasetRecord, RunRecord, RUN_DATA_STORES } from './schema';

/** The kinds of a run's rows (schema.ts's stores, in a bundle's order), and the row of each. */
export type RunRowKind = (typeof RUN_DATA_STORES)[number];
export interface RunRows {
  steps: StepRecord;
  skills: SkillVersion;
  rollouts: RolloutRow;
  calls: OptimizerCallRecord;
  artifacts: ArtifactRecord;
}

export interface RunRecords {
  getRun(runId: string): Promise<RunRecord | undefined>;
  putRun(run: RunRecord): Promise<void>;
  getDataset(id: string): Promise<DatasetRecord | undefined>;
  putDataset(d: DatasetRecord): Promise<void>;
  /** A dataset's name without reading its items (a report names it). */
  datasetName(id: string): Promise<string | undefined>;
  /** The engine's store of one run's records. */
  runStore(runId: string): RunStore;

  /** One step's record. */
  getStep(runId: string, step: number): Promise<StepRecord | undefined>;
  /** Every step's record, in step order. */
  getSteps(runId: string): Promise<StepRecord[]>;
  /** The run's skill versions, oldest first. */
  getSkillVersions(runId: string): Promise<SkillVersion[]>;
  /** One phase's rows, in order. */
  getRollouts(runId: string, phase: string): Promise<RolloutRow[]>;
  /** Every row of one skill (by hash), on any item. */
  skillRows(runId: string, skillHash: string): Promise<RolloutRow[]>;
  /** The calls and artifacts whose keys start with `prefix` (a step's: `${stepKey(step)}/`). */
  callsUnder(runId: string, prefix: string): Promise<OptimizerCallRecord[]>;
  artifactsUnder(runId: string, prefix: string): Promise<ArtifactRecord[]>;
  /** A run's rows of one kind, a page at a time, in the order of their keys (a bundle's order). */
  rowPages<K extends RunRowKind>(runId: string, kind: K, size: number): AsyncIterable<RunRows[K][]>;

  /** Store a validated bundle: a new run (under a fresh id when its id is taken), read-only until bound. */
  importBundle(bundle: RunBundle, newId: () => string): Promise<ImportResult>;
}
