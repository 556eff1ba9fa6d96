/**
 * The IndexedDB schema of Skillwright (DESIGN §5). WARNING: the stores and indexes below are
 * persisted in users' browsers. Never change them without a new version and an upgrade step
 * in open-db.ts, with a test that seeds the previous version by hand.
 */
import type { RunEnvironmentSpec } from '../core/agent/environment-spec';
import type { AgentCommand } from '../core/agent/agent-command';
import type { EndpointSettings } from '../core/config/endpoint-settings';
import type { SkillMeta } from '../core/skill/skill-file';
import type { TriggerQuery } from '../core/dataset/trigger-queries';
import type { PackageShell } from '../core/skill/package-zip';
import type { DBSchema } from 'idb';
import type { Dataset } from '../core/dataset/dataset-types';
import type { RunConfig } from '../core/config/run-config';
import type { Price, Prices } from '../engine/meter';
import type {
  ArtifactRecord,
  OptimizerCallRecord,
  RolloutRow,
  RunState,
  RunStatus,
  SkillVersion,
  StepRecord,
} from '../engine/types';

export const DB_NAME = 'skillwright';
export const DB_VERSION = 4;

/** Endpoint settings as stored with a run: never the key. */
export interface StoredEndpoint extends EndpointSettings {
  timeoutMs?: number;
  maxRetries?: number;
  /** The target is an agent CLI the runner starts per item (issue #31); its address is a stand-in. */
  agentCommand?: AgentCommand;
  /** A confirming target's own price (issue #42 item 5), billed instead of the run's target's. */
  price?: Price;
}

export interface RunEndpoints {
  target: StoredEndpoint;
  optimizer: StoredEndpoint;
  judge?: StoredEndpoint;
  /** The user simulator's own endpoint (issue #31); the optimizer's when absent. */
  userSimulator?: StoredEndpoint;
  /** Targets that score the starting and best skills on test after training (issue #42 item 5), in order. */
  confirm?: StoredEndpoint[];
  /** Other targets that gate every candidate: each must find it no worse on validation (issue #42 item 5). */
  targets?: StoredEndpoint[];
}

export interface DatasetRecord extends Dataset {
  id: string;
  name: string;
  createdAt: number;
  fieldNames: string[];
  /** The folder the runner read it from: its items' workspaces are found there (never in a bundle). */
  folder?: string;
  /** Looks at the test split recorded before they moved to the index (kept for old records). */
  testLooks?: TestLook[];
}

/** A look at the test split outside a run's final report: each makes its score less unbiased. */
export interface TestLook {
  at: number;
  what: string;
}

export interface DatasetIndexRecord {
  id: string;
  name: string;
  createdAt: number;
  format: DatasetRecord['format'];
  counts: { train: number; val: number; test: number };
  warnings: string[];
  testLooks: number;
  /** The looks themselves, newest last (kept in the small index so a look never rewrites the dataset). */
  testLookLog?: TestLook[];
}

/** The index entry of a stored dataset. */
export function datasetIndexOf(d: DatasetRecord): DatasetIndexRecord {
  return {
    id: d.id,
    name: d.name,
    createdAt: d.createdAt ?? 0,
    format: d.format,
    counts: { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length },
    warnings: d.warnings ?? [],
    testLooks: d.testLooks?.length ?? 0,
  };
}

export interface RunRecord {
  id: string;
  name: string;
  datasetId: string;
  createdAt: number;
  updatedAt: number;
  status: RunStatus;
  config: RunConfig;
  initialSkill: string;
  endpoints: RunEndpoints;
  prices: Prices;
  /** The engine's state; absent until the run first starts. */
  state?: RunState;
  /** Version the run was started from, when it was ("new run from this version"). */
  parent?: { runId: string; hash: string; label?: string };
  /**
   * Imported from a bundle: its endpoints are someone else's. Read-only (never started, so no
   * key is sent to a host from a file) until the user binds it to endpoints of their own.
   */
  needsBinding?: boolean;
  /** Agent Skills name and description for the SKILL.md export (never trained). */
  skillMeta?: SkillMeta;
  /** A skill package's frontmatter and untrained files, for its .zip export (issue #23). */
  skillPackage?: PackageShell;
  /** Trigger queries of the activation track (issue #23 item 4), when the run trains the description. */
  triggerQueries?: TriggerQuery[];
  /** Its agents' environment module, kept with the run (issue #30). */
  environment?: RunEnvironmentSpec;
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

export interface SkillwrightDB extends DBSchema {
  datasets: { key: string; value: DatasetRecord; indexes: { 'by-created': number } };
  /** What a datasets list shows, without the items (version 3): listing never reads a dataset whole. */
  datasetIndex: { key: string; value: DatasetIndexRecord; indexes: { 'by-created': number } };
  runs: { key: string; value: RunRecord; indexes: { 'by-updated': number; 'by-status': string } };
  steps: { key: [string, number]; value: StepRecord; indexes: { 'by-run': string } };
  /** Skill versions by [runId, origin] (version 4; by [runId, hash] before). */
  skills: { key: [string, string]; value: SkillVersion; indexes: { 'by-run': string } };
  rollouts: {
    key: [string, string, number];
    value: RolloutRow;
    indexes: {
      'by-run': string;
      'by-run-phase': [string, string];
      'by-cache': [string, string];
      'by-skill-item': [string, string, string];
    };
  };
  calls: { key: [string, string]; value: OptimizerCallRecord; indexes: { 'by-run': string } };
  artifacts: { key: [string, string]; value: ArtifactRecord; indexes: { 'by-run': string } };
  settings: { key: string; value: SettingRecord };
}

export const RUN_DATA_STORES = ['steps', 'skills', 'rollouts', 'calls', 'artifacts'] as const;

/** The kinds of a run's rows (the stores above, in a bundle's order), and the row of each. */
export type RunRowKind = (typeof RUN_DATA_STORES)[number];
export interface RunRows {
  steps: StepRecord;
  skills: SkillVersion;
  rollouts: RolloutRow;
  calls: OptimizerCallRecord;
  artifacts: ArtifactRecord;
}
