/**
 * The worker API's contract (DESIGN §2). The page (src/ui, src/store, src/client) imports
 * types from below only through this file — lint and test/architecture.test.ts enforce it —
 * so it owns or re-exports every type that crosses. Everything that crosses is plain data;
 * expected failures come back as `{ok: false, error}` because Comlink keeps only the message
 * of a thrown error.
 */
import type { Effort } from '../core/config/capabilities';
import type { CostEstimate } from '../engine/cost-estimate';
import type { Price, Prices } from '../engine/meter';
import type { EngineStage, NoiseReading, RunEvent } from '../engine/events';
import type {
  RolloutRow,
  RunStatus,
  SkillVersion,
  StageUsage,
  StepRecord,
  RunSummary,
  EpochStats,
  TestReport,
  LiftReport,
  ActivationState,
} from '../engine/types';
import type { DatasetItem, DatasetProblem, FieldMapping, DatasetFormat } from '../core/dataset/dataset-types';
import type { RunConfig } from '../core/config/run-config';
import type { SkillMeta } from '../core/skill/skill-file';
import type { PackageShell } from '../core/skill/package-zip';
import type { CurveMark } from '../core/report/learning-curve';
import type { ModuleSource, RunEnvironmentSpec } from '../core/agent/environment-spec';
import type { TriggerQuery } from '../core/dataset/trigger-queries';
import type { McpServerConfig, McpSettings } from '../core/agent/mcp-servers';
import type { CreateRunInput } from '../service/runs';
import type { StepDetail } from '../service/inspection';
import type { Confirmed as ConfirmOutput } from '../service/confirm-run';
import type { Evaluation as EvaluateSkillOutput, Feedback as FeedbackOutput } from '../service/evaluation';
import type { SectionCredit as SectionCreditOutput } from '../service/section-credit';
import type { GatedDrop as SectionDropOutput } from '../engine/run/gate-drop';
import type { CreditReport, SectionCredit } from '../core/verdict/section-credit';
import type { BuildChoices, ImportOptions } from '../core/dataset/dataset-import';
import type { DatasetListItem } from '../storage/datasets-repo';
import type { RunListItem } from '../storage/runs-repo';
import type { BlameLine, BlameSource, SkillBlame } from '../service/skill-blame';
import type { ReviewRequest } from '../engine/artifacts';
import type { RunEndpoints, StoredEndpoint } from '../storage/schema';

import type { RoleCheck } from '../service/connection-check';
import type {
  CheckArtifact,
  GateArtifact,
  LookAheadArtifact,
  RepairArtifact,
  RewriteArtifact,
  RidersArtifact,
  ScreenedArtifact,
  StepArtifacts,
  TieBreakRecord,
} from '../engine/artifacts';

// What the page needs by name from below; nothing else is re-exported.
// The run service's own shapes, as the page sends and receives them.
export type { CreateRunInput, StepDetail, EvaluateSkillOutput, FeedbackOutput, ConfirmOutput };
export type { SectionCreditOutput, SectionDropOutput, CreditReport, SectionCredit };
export type { AppendixFlush } from '../engine/artifacts';
export type { BlameLine, BlameSource, SkillBlame, ReviewRequest };
export type {
  CheckArtifact,
  GateArtifact,
  LookAheadArtifact,
  RepairArtifact,
  RewriteArtifact,
  RidersArtifact,
  ScreenedArtifact,
  StepArtifacts,
  TieBreakRecord,
};
export type { TestReport, LiftReport };
export type { NoiseReading };
export type {
  CostEstimate,
  DatasetListItem,
  EngineStage,
  Price,
  Prices,
  RoleCheck,
  RolloutRow,
  RunEndpoints,
  RunEvent,
  RunListItem,
  RunStatus,
  SkillVersion,
  StageUsage,
  StepRecord,
  StoredEndpoint,
};

export interface ApiError {
  kind: string;
  message: string;
  problems?: DatasetProblem[];
  truncated?: boolean;
}
export type Result<T> = ({ ok: true } & T) | { ok: false; error: ApiError };

export interface Secrets {
  target?: string;
  optimizer?: string;
  judge?: string;
  /** The user simulator's own key (issue #31), when its endpoint is not the optimizer's. */
  userSimulator?: string;
  /** A model target that confirms a finished run's skills on another endpoint (issue #42 item 5). */
  confirm?: string;
  /**
   * The origin (scheme://host:port) each key was typed for. The worker sends a key only to that
   * origin, so a run from a file or an old run on another provider cannot receive it.
   */
  hosts?: { target?: string; optimizer?: string; judge?: string; userSimulator?: string; confirm?: string };
  /** MCP servers' tokens by the server's URL (issue #31): each sent only to that URL's origin. */
  mcp?: Record<string, string>;
}

export interface DatasetInspection {
  format?: DatasetFormat;
  fieldNames: string[];
  mapping?: FieldMapping;
  counts?: { train: number; val: number; test: number };
  preview?: DatasetItem[];
  warnings?: string[];
  problems?: DatasetProblem[];
  truncated?: boolean;
}

/** A dataset checked under some choices: its counts and preview, or its problems. */
export type DatasetCheck = Result<DatasetInspection> | ({ ok: false } & DatasetInspection & { error: ApiError });

/** A run event as the page receives it: with the id of the run it belongs to (issue #20 item 3). */
export type RunEventOf = RunEvent & { runId: string };

export interface RunDetail {
  run: RunListItem;
  config: RunConfig;
  initialSkill: string;
  endpoints: RunEndpoints;
  prices: Prices;
  skillMeta?: SkillMeta;
  /** The activation track so far: the description before and after (issue #23 item 4). */
  activation?: ActivationState;
  currentSkill: string;
  bestSkill: string;
  currentScore: number;
  baselineScore?: number;
  bestScore: number;
  bestStep: number;
  nextStep: number;
  totalSteps: number;
  metaSkill: string;
  epochStats: EpochStats[];
  summary?: RunSummary;
  reason?: string;
  reasonKind?: string;
  /** Another tab is running it: this one may only read. */
  lockedElsewhere: boolean;
  /**
   * Its environment module (issue #39): code. `fromFile` while it came with an imported file and
   * the person has not yet read it and chosen to run it — until then it runs nothing.
   */
  module?: { name: string; fileName: string; hash: string; bytes: number; fromFile: boolean };
  /** The MCP servers its agent calls, as the run keeps them (an imported run: as its file asked). */
  mcpServers?: McpServerConfig[];
}

export interface StartOutcome {
  status: RunStatus;
  reason?: string;
  reasonKind?: string;
}

/** Named inputs and outputs of the longer calls (the contract below reads as a table of contents). */
export interface EvaluateSkillInput {
  datasetId: string;
  split: 'train' | 'val' | 'test';
  limit: number;
  skill: string;
  config: RunConfig;
  endpoints: RunEndpoints;
  prices?: Prices;
  /** The agents' environment module (issue #30), when the skill is an agent's. */
  environment?: RunEnvironmentSpec;
}
/** Section credit (issue #43 item 4): the skill's sections masked on validation within `budget` calls. */
export interface SectionCreditInput extends Omit<EvaluateSkillInput, 'split' | 'limit'> {
  budget: number;
}
/** A drop of the chosen sections, put to the gate against the skill as it is. */
export interface SectionDropInput extends Omit<EvaluateSkillInput, 'split' | 'limit'> {
  sections: number[];
}
export interface FeedbackInput {
  skill: string;
  feedback: string;
  config: RunConfig;
  endpoints: RunEndpoints;
  prices?: Prices;
}
export interface EstimateInput {
  datasetId: string;
  config: RunConfig;
  skill: string;
  prices?: Prices;
  /** The run's target (its batch API, an agent CLI): the service derives what they change. */
  target?: Pick<StoredEndpoint, 'batchApi' | 'agentCommand'>;
  /** The activation track's queries, when it runs. */
  triggerQueries?: TriggerQuery[];
  /** The run's environment (issue #30, #31): a module or MCP servers; with it, each rollout is a trajectory of turns. */
  environment?: RunEnvironmentSpec;
  /** The effort each role's calls reason at, for the reasoning tokens (issue #44). */
  reasoning?: Partial<Record<'target' | 'optimizer', Effort>>;
}
export interface ConnectionInput {
  target: StoredEndpoint;
  optimizer: StoredEndpoint;
  judge?: StoredEndpoint;
  userSimulator?: StoredEndpoint;
}
export interface ModelListEndpoint {
  baseURL: string;
  headers?: Record<string, string>;
  minimalHeaders?: boolean;
}

/** Connect (handlers/connection.ts). */
export interface ConnectionApi {
  /** One tiny call per role with the keys the worker holds (`setKeys`); the page never sends a key again. */
  testConnection(input: ConnectionInput): Promise<RoleCheck[]>;
  /** The endpoint's model list, asked with the target key held for its host (if any). */
  listModels(endpoint: ModelListEndpoint): Promise<Result<{ models: string[] }>>;
}

/** A tool as Test MCP server lists it (issue #31). */
export interface McpToolReport {
  name: string;
  description?: string;
  /** The server says it changes nothing (MCP's readOnlyHint). */
  readOnly: boolean;
  /** The server says it may destroy or change things (MCP's destructiveHint, or no hint). */
  sideEffects: boolean;
}

export interface McpServerReport {
  server?: { name: string; version: string };
  tools: McpToolReport[];
  resources: number;
}

/** MCP servers (handlers/mcp.ts). */
export interface McpApi {
  /**
   * Connect to an MCP server (with the token `setKeys` gave for its URL, if any), list its tools
   * and resources, and end the session; or name the problem: unreachable, CORS (with the fix),
   * unauthorized, not an MCP endpoint, protocol version, time-out.
   */
  testMcpServer(input: {
    url: string;
    name?: string;
    headers?: Record<string, string>;
  }): Promise<Result<McpServerReport>>;
}

/** Data (handlers/datasets.ts). */
export interface DatasetsApi {
  /**
   * Hand a dataset file over once (a File is a Blob: it crosses without copying its bytes). The
   * worker reads and parses it and keeps it as a draft; the answer is its first inspection.
   */
  stageDataset(file: Blob, options: ImportOptions): Promise<DatasetCheck & { draftId?: string }>;
  /** The staged file under other choices (mapping, split shares, seed); nothing is read or parsed again. */
  inspectStaged(draftId: string, choices: BuildChoices): Promise<DatasetCheck>;
  /** Store the staged file under these choices; the draft is dropped. */
  commitStaged(
    draftId: string,
    choices: BuildChoices & { name: string },
  ): Promise<Result<{ dataset: DatasetListItem }>>;
  discardStaged(draftId: string): Promise<void>;
  /** Parse and store a dataset in one call (scripts and tests; the page stages instead). */
  importDataset(text: string, options: ImportOptions & { name: string }): Promise<Result<{ dataset: DatasetListItem }>>;
  listDatasets(): Promise<DatasetListItem[]>;
  getDatasetItems(
    id: string,
    split: 'train' | 'val' | 'test' | 'all',
    offset: number,
    limit: number,
  ): Promise<Result<{ items: DatasetItem[]; total: number }>>;
  deleteDataset(id: string): Promise<void>;
  /**
   * Load an environment module (issue #30) in a sandbox of its own and say what it offers — its
   * name, tools and whether it scores — or what is wrong with it; nothing is kept.
   */
  inspectModule(
    source: string,
    fileName: string,
  ): Promise<Result<{ module: ModuleSource; tools: { name: string; description?: string }[]; scores: boolean }>>;
  /** The page's sandboxes, where every environment module runs (issue #39); without them none runs. */
  useModuleSandboxes(sandboxes: ModuleSandboxes): Promise<void>;
}

/**
 * Where environment modules run (issue #39): the page opens each one a sandboxed iframe — an
 * opaque origin with no storage, locks or network of its own (public/module-sandbox.html) — and
 * starts `hostScript` there as a worker, which answers on the port `open` returns. Closing one
 * removes its iframe, and with it the worker, however busy it is.
 */
export interface ModuleSandboxes {
  open(hostScript: string): Promise<{ id: number; port: MessagePort }>;
  close(id: number): Promise<void>;
}

/** Skill and Train work outside a run (handlers/evaluation.ts). */
export interface EvaluationApi {
  /** Roll one skill out on a split of a stored dataset, without a run (nothing is stored). */
  evaluateSkill(input: EvaluateSkillInput, onEvent?: (e: RunEvent) => unknown): Promise<Result<EvaluateSkillOutput>>;
  /** Steering: the optimizer turns feedback into a bounded patch of the skill; nothing is stored or gated. */
  improveWithFeedback(input: FeedbackInput): Promise<Result<FeedbackOutput>>;
  /** Which section earns its tokens: each section's effect by random masking on validation (nothing is stored). */
  creditSections(input: SectionCreditInput, onEvent?: (e: RunEvent) => unknown): Promise<Result<SectionCreditOutput>>;
  /** Dropping sections as a candidate the gate judges, never silently: the gate's verdict and the candidate. */
  gateSectionDrop(input: SectionDropInput, onEvent?: (e: RunEvent) => unknown): Promise<Result<SectionDropOutput>>;
  estimateCost(input: EstimateInput): Promise<Result<{ estimate: CostEstimate }>>;
}

/** Runs: create, run, list, rename, delete (handlers/runs.ts). */
export interface RunsApi {
  createRun(input: CreateRunInput): Promise<Result<{ runId: string }>>;
  /** Start or resume a run with the keys held for its hosts (a missing or mismatched key is refused, not sent). */
  startRun(
    runId: string,
    onEvent?: (e: RunEventOf) => unknown,
    patch?: Partial<Pick<RunConfig, 'budget'>>,
  ): Promise<Result<StartOutcome>>;
  pauseRun(runId: string): Promise<boolean>;
  cancelRun(runId: string): Promise<boolean>;
  listRuns(): Promise<RunListItem[]>;
  getRun(runId: string): Promise<Result<{ detail: RunDetail }>>;
  /** The package shell a run was started with (issue #23), asked for only when a package is exported. */
  getRunPackage(runId: string): Promise<PackageShell | null>;
  renameRun(runId: string, name: string): Promise<boolean>;
  deleteRun(runId: string): Promise<Result<object>>;
  /** A run's environment module with its source, to read before it runs (issue #39). */
  getRunModule(runId: string): Promise<Result<{ module: ModuleSource }>>;
  /**
   * Run this module: the person read the source of the module an imported run carries (the one
   * with this hash) and chose to run it. Until then a resume runs nothing of it.
   */
  approveModule(runId: string, hash: string): Promise<Result<object>>;
  recoverInterrupted(): Promise<string[]>;
  /**
   * Confirm a finished run's starting and best skills on another model target (issue #42 item 5):
   * scored on test there as the runner's `confirm` does, the lift added to the run's transfer. The
   * key is the one held for that endpoint's host (`confirm`'s own, else the target's); an agent CLI
   * is refused (the page starts no programs). `cancelRun` stops it; asked again, it resumes.
   */
  confirmRun(
    runId: string,
    endpoint: StoredEndpoint,
    onEvent?: (e: RunEventOf) => unknown,
  ): Promise<Result<ConfirmOutput>>;
}

/** Reading a run's steps, rows, versions and blame (handlers/inspection.ts). */
export interface InspectionApi {
  getSteps(runId: string, offset: number, limit: number): Promise<{ steps: StepRecord[]; total: number }>;
  getStepDetail(runId: string, step: number): Promise<Result<{ detail: StepDetail }>>;
  getRollouts(runId: string, phase: string): Promise<RolloutRow[]>;
  /** The run's versions, oldest first, from `offset` on (a live page asks only for new ones). */
  getSkillVersions(runId: string, offset?: number): Promise<SkillVersion[]>;
  /** The learning curve's marks so far (core/learning-curve.ts turns them into points). */
  getCurveMarks(runId: string): Promise<CurveMark[]>;
  /** Edit blame: which version of the run introduced each line of `text`, with the step's edit, reasoning and items. */
  blameSkill(runId: string, text: string): Promise<Result<{ blame: SkillBlame }>>;
}

/** Steering: a run paused for review (handlers/review.ts). */
export interface ReviewApi {
  /** What the step a run is paused at for review proposes. */
  getReview(runId: string): Promise<Result<{ step: number; request: ReviewRequest }>>;
  /**
   * Approve these items (indices) of the step's proposal — the one the panel showed (`proposal`, the
   * request's id; null for a request stored without one) — then resume the run to gate them. A
   * decision on a proposal that has since been rebuilt is refused, never applied to the new one.
   */
  submitReview(
    runId: string,
    step: number,
    approved: number[],
    proposal: string | null,
  ): Promise<Result<{ approved: number; of: number }>>;
}

/** Run files in and out (handlers/bundles.ts). */
export interface BundlesApi {
  /** The run bundle as a file (written piece by piece, never one giant string). */
  exportRun(runId: string): Promise<Result<{ file: Blob; bytes: number }>>;
  /** Import a bundle file (a File from an input is a Blob); it is read in the worker. */
  importRun(file: Blob): Promise<Result<{ runId: string; renamed: boolean }>>;
  storageUsage(): Promise<{ usage?: number; quota?: number; runs: number; datasets: number }>;
}

/** Documents made from a run (handlers/report.ts). */
export interface ReportApi {
  /** A self-contained HTML report of the run (chart, accepted edits, per-item gate table, test report, cost). */
  exportReport(runId: string): Promise<Result<{ file: Blob }>>;
  /** The run's dataset as an Agent Skills evals/evals.json, its split and lift as metadata (issue #23). */
  exportEvals(runId: string): Promise<Result<{ file: Blob }>>;
}

/** Keys: the worker is their only holder (handlers/keys.ts). */
export interface KeysApi {
  /**
   * Hand keys to the worker, the only key holder, each bound to the host it was typed for; the
   * page then forgets them. With `remember`, the keys held are also stored on this device.
   */
  setKeys(keys: Secrets, remember: boolean): Promise<void>;
  /**
   * Bind an imported run to endpoints the user chose (their Connect settings); it can run
   * afterwards. A run whose agent calls MCP servers is bound to the person's own settings for
   * them (`mcp`, from Data: their names, headers and ticked tools), never its file's; refused
   * unless those name every one of its servers.
   */
  bindRun(
    runId: string,
    endpoints: RunEndpoints,
    prices: Prices,
    mcp?: McpSettings | null,
  ): Promise<Result<{ hosts: string[] }>>;
  keyStatus(): Promise<{
    target: boolean;
    optimizer: boolean;
    judge: boolean;
    userSimulator: boolean;
    remembered: boolean;
  }>;
  /** Delete remembered keys from this device; also from memory unless `keepSession` (unticking "Remember"). */
  forgetKeys(opts?: { keepSession?: boolean }): Promise<void>;
}

/** The worker's whole contract with the page: one part per handler file. */
export type WorkerApi = ConnectionApi &
  McpApi &
  DatasetsApi &
  EvaluationApi &
  RunsApi &
  InspectionApi &
  ReviewApi &
  BundlesApi &
  ReportApi &
  KeysApi;
