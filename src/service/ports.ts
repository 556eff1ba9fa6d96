/**
 * What the run service needs from its host (DESIGN §7b): the store, the prompt texts, where keys
 * come from, the transport of LLM calls, the clock and ids — and, for agentic runs (issue #30),
 * what differs in how a run's environment and target are had (service/target.ts chooses them).
 * The page's worker and the runner each provide them; everything else is the service's own.
 */
import type { ClientOptions } from '../llm/openai-client';
import type { RunStore } from '../engine/ports';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, SkillVersion, StepRecord } from '../engine/types';
import type { ImportResult, RunBundle } from '../storage/bundle';
import type { DatasetRecord, RunEndpoints, RunRecord, RunRowKind, RunRows } from '../storage/schema';
import type { AgentCliHost, EnvironmentHost } from './target';

/**
 * `confirm`: a target that confirms the run's skills; asked with `endpoints.confirm` holding that one target.
 * `targets`: another target that gates each candidate; asked with `endpoints.targets` holding that one.
 */
export type KeyRole = EndpointRole | 'confirm' | 'targets';
/** The roles that have one endpoint each in a run's `endpoints`. */
export type EndpointRole = 'target' | 'optimizer' | 'judge' | 'userSimulator';

export type KeyFor = { ok: true; key: string } | { ok: false; kind: string; message: string };

/**
 * Where the host keeps keys — the page's vault (keys bound to the host they were typed for), the
 * runner's environment variables. `borrow` names the role whose key this role may use when it
 * has none of its own; the host's own rule decides whether it may.
 */
export interface KeySource {
  keyFor(role: KeyRole, endpoints: RunEndpoints, borrow?: EndpointRole): Promise<KeyFor>;
}

/**
 * The run service's store (DESIGN §7b): run records and their datasets, each run's engine store
 * (the engine's `RunStore`), and the reads the read models (step records, blame, the report, the
 * bundle: this folder) are written over once. Its adapters live in src/storage — IndexedDB for the
 * page (`idb-run-records.ts`), a file per run for the runner (`file-run-records.ts`) — and keep
 * it without importing it (storage sits below the service): the hosts that hand them over, and
 * the contract suite every adapter runs (test/storage/store-contracts.test.ts), check it.
 */
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

/** A host's ports besides its store: all that use cases outside a stored run (evaluate, estimate) need. */
export interface HostDeps {
  /** Prompt texts by name (prompts/*.md): Vite's `?raw` in the page, the folder on disk in the runner. */
  promptFiles: Record<string, string>;
  keys: KeySource;
  /** How LLM calls travel (the page answers its demo endpoint in the worker; tests shorten backoffs). */
  transport?: ClientOptions;
  /** What the host gives for a run's environment and an agent CLI target (service/target.ts). */
  environment?: EnvironmentHost;
  agentCli?: AgentCliHost;
  now: () => number;
  newId: () => string;
  /** Where the store is, for messages: "this browser", "this folder". */
  place: string;
}

export interface ServiceDeps extends HostDeps {
  records: RunRecords;
}

export { fail, type Outcome, type ServiceError } from './outcome';
