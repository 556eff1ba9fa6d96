/** Records the engine reads and writes through its RunStore (algorithm doc §1.8–§1.10, DESIGN §5). */
import type { GateRuleVerdict } from '../core/verdict/gate-rules';
import type { Diagnosis } from '../core/verdict/diagnostics';
import type { Edit, EditApplySummary } from '../core/skill/edits';
import type { GateAction, GateState } from '../core/verdict/gate';
import type { ScheduleState } from '../core/config/schedules';
import type { RunConfig } from '../core/config/run-config';
import type { DatasetItem, SplitName } from '../core/dataset/dataset-types';
import type { LiftInterval } from '../core/verdict/lift';
import type { PassK } from '../core/verdict/pass-k';
import type { TransferVerdict } from '../core/verdict/transfer';
import type { TrajectoryEntry } from '../core/agent/trajectory';
import type { ToolSpec } from '../core/agent/tool-spec';
import type { Spend } from '../core/report/learning-curve';
import type { CreditReport } from '../core/verdict/section-credit';
import type { CreditPlan } from '../core/verdict/section-masks';

/** Who answers a call: the target, the optimizer, the judge, or the user simulator (issue #31). */
export type Role = 'target' | 'optimizer' | 'judge' | 'userSimulator';

/** Tokens a call used, as the provider reported them (or estimated). */
export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Prompt tokens the endpoint served from its cache (billed at the cached-input price), when it says. */
  cachedTokens?: number;
  /** What the call cost in USD as an agent CLI reported it (issue #42): billed when its role has no price. */
  reportedUsd?: number;
}

export type RunStatus = 'idle' | 'running' | 'paused' | 'interrupted' | 'completed' | 'failed' | 'cancelled';

/** One item rolled out by the target with one skill. */
export interface RolloutRow {
  runId: string;
  /** e.g. "baseline", "s0003/rollout", "s0003/gate", "e02/prev", "final", "test/best". */
  phase: string;
  /** Position of the item in the phase (rows are combined in this order, never by completion). */
  order: number;
  itemId: string;
  skillHash: string;
  /** skill hash | item id | target settings: the rollout cache key. */
  cacheKey: string;
  status: 'ok' | 'error';
  response: string;
  predicted: string;
  hard: number;
  soft: number;
  failReason?: string;
  error?: { kind: string; message: string };
  judge?: { pass: boolean; score: number; reason: string };
  usage: LlmUsage;
  latencyMs: number;
  /** Reused from an earlier identical rollout: no call was made. */
  cached: boolean;
  /** Answered as a line of a provider batch (billed at the batch price), not by a live call. */
  viaBatch?: true;
  /** An agent's rollout (issue #30): every model turn and tool result, in order; `response` is its final answer. */
  trajectory?: TrajectoryEntry[];
  /** Model turns the trajectory took (each one a target call). */
  turns?: number;
}

/** An optimizer call's outcome, memoised by a deterministic key (e.g. "s0003/reflect_failure/1"). */
export interface OptimizerCallRecord {
  runId: string;
  key: string;
  stage: string;
  /** Hash of the prompt name and rendered messages; a memo is replayed only for the same request (absent in old runs). */
  inputHash?: string;
  /** First 2 000 characters of the user message, for inspection. */
  requestPreview: string;
  raw: string;
  parsed: unknown;
  ok: boolean;
  error?: { kind: string; message: string };
  usage: LlmUsage;
  latencyMs: number;
}

/** A derived stage result kept for inspection (merged patch, ranking, apply report, …). */
export interface ArtifactRecord {
  runId: string;
  key: string;
  value: unknown;
}

export interface BufferEntry {
  step: number;
  action: string;
  n_total: number;
  n_fail: number;
  failure_patterns: { pattern: string; count: number; task_ids: string[] }[];
  analyst_summaries: string[];
  score_before?: number;
  score_after?: number;
  rejected_edits?: { op: string; content: string; target: string }[];
}

export interface SelectionScore {
  hard: number;
  soft: number;
  /** Items scored (errored rows are left out). */
  n: number;
  /** Items whose call failed (not scored); the gate then compares on the items both skills scored. */
  errors?: number;
  /** false: the evaluation stopped early; the score is an upper bound and never reused as a full score. */
  complete: boolean;
  /** The skill changed outside the gate (epoch placeholder, forced slow update): its score was carried over, not measured. */
  carried?: boolean;
  /** The hash of the skill the score (and its validation rows) were carried from: the same body. */
  carriedFrom?: string;
}

export interface StageUsage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  /** Prompt tokens served from the endpoint's cache (issue #44), when it reported any. */
  cachedTokens?: number;
  /** The cost agent CLIs reported for these calls (issue #42), kept so a restored meter bills it again. */
  reportedUsd?: number;
  costUsd: number;
}

/** One step, as history.json holds it (§1.8), plus what the UI needs. */
export interface StepRecord {
  runId: string;
  step: number;
  epoch: number;
  stepInEpoch: number;
  rolloutHard: number;
  rolloutSoft: number;
  rolloutN: number;
  rolloutErrors: number;
  batches: {
    batchIndex: number;
    batchSeed: number;
    nItems: number;
    hard: number;
    soft: number;
    failurePatches: number;
    successPatches: number;
  }[];
  nFailurePatches: number;
  nSuccessPatches: number;
  nEditsMerged: number;
  nEditsRanked: number;
  editBudget: number | null;
  candidateHash: string | null;
  candidateSkillLen: number | null;
  editApplySummary: EditApplySummary | null;
  /** The current skill's score when the step began: what its candidate had to beat. */
  scoreBefore?: number;
  /** Rewrite modes: what the rewritten candidate changed, one line per change. */
  rewriteChangeSummary?: string[];
  selectionHard: number | null;
  selectionSoft: number | null;
  selectionN: number | null;
  selectionComplete: boolean | null;
  selectionCacheHit: boolean;
  gateMetric: string;
  /** The candidate's first-sample gate score: each item's first try (an upper bound when it stopped early). */
  candidateGateScore: number | null;
  /**
   * The score the gate decided on (engine/gate.ts `decidedScore`): the candidate's settled score, on a
   * target seen to flip its expected pass rate, the re-check's when that confirmed a new best — the
   * measure the run's current and best scores are in. Absent in runs from before it was kept.
   */
  candidateSettledScore?: number | null;
  action: GateAction | 'skip_no_patches' | 'skip_no_rewrite' | 'skip_settled';
  /** The other target that refused a candidate the run's own target accepted (issue #42 item 5). */
  refusedBy?: string;
  currentScore: number;
  bestScore: number;
  bestStep: number;
  currentOrigin: string;
  bestOrigin: string;
  skillLen: number;
  timing: Record<string, number>;
  usage: Record<string, StageUsage>;
  wallTimeMs: number;
  /**
   * Target calls of each round the step's verdicts asked again, in order (issue #45): each round
   * waits for the one before. Absent in runs from before it was kept.
   */
  verdictRounds?: number[];
  /** What the run had spent when the step ended (the meter's totals, not this step's): its learning curve's x. */
  spend?: Spend;
  /** The candidate's pass^1, pass^k and item flip rate on validation, when `curvePassK` asked (issue #43). */
  curvePassK?: PassK;
}

export interface SkillVersion {
  runId: string;
  hash: string;
  text: string;
  /** initial_skill, step_0007, slow_update_epoch_02, … */
  origin: string;
  step: number;
  createdAt: number;
}

export interface EpochStats {
  epoch: number;
  steps: number;
  accepts: number;
  rejects: number;
  skips: number;
  bestScoreAtEnd: number;
  currentScoreAtEnd: number;
  slowUpdate?: {
    action: string;
    reasoning?: string;
    content?: string;
    candidateHash?: string;
    gateScore?: number;
    complete?: boolean;
    cacheHit?: boolean;
    /** Validation items its score stands on. */
    n?: number;
    /** The gate rule's verdict when the slow update passed the mean gate (core/verdict/gate-rules.ts). */
    rule?: GateRuleVerdict;
    /** Its pass^1, pass^k and item flip rate on validation, when `curvePassK` asked (issue #43). */
    curvePassK?: PassK;
  };
  metaSkill?: { action: string; content?: string };
  /** What the run had spent when the boundary ended (the learning curve's x). */
  spend?: Spend;
}

/** What an undecided gate bought before deciding: more samples per item, and how the verdict moved. */
export interface EvidenceRecord {
  asked: 'samples';
  /** Most samples per side and item, up from the run's. */
  samples: number;
  /** Target calls the extra samples took. */
  calls: number;
  before: { pBetter: number; pWorse: number };
  after: { pBetter: number; pWorse: number };
}

/** A description rewrite the activation track's gate rejected: shown to later rewrites (issue #40). */
export interface RejectedRewrite {
  candidate: string;
  /** The gate's validation shares: the description it met, the rewrite. */
  valCurrent: number;
  valCandidate: number;
  /** What its undecided verdict bought before it said no (issue #40); absent when it decided on the run's samples. */
  evidence?: EvidenceRecord;
}

/** One epoch of the activation track (engine/activation.ts). */
export interface ActivationEpoch {
  epoch: number;
  /** accept / reject at the gate; no_misfires: every train query decided right; no_candidate: no usable rewrite. */
  action: 'accept' | 'reject' | 'no_misfires' | 'no_candidate';
  /** Share of train queries decided right with the description the epoch started with. */
  trainBefore: number;
  reasoning?: string;
  candidate?: string;
  /** The gate's verdict on the validation queries: the current description's share, the candidate's. */
  valCurrent?: number;
  valCandidate?: number;
  /** The gate rule's verdict on a rewrite that gained (absent under the mean rule). */
  rule?: GateRuleVerdict;
  /** What the gate's undecided verdict bought before deciding (issue #40); absent when it decided on the run's samples. */
  evidence?: EvidenceRecord;
  /** The rewrite this epoch's gate rejected before the one above (the track asks twice at most, issue #40). */
  earlier?: RejectedRewrite[];
  /** The rewrite above refines the earlier one, which tied at the gate, from its own train misfires. */
  lookAhead?: boolean;
}

/** The activation track's state: the description trained on trigger queries (issue #23 item 4). */
export interface ActivationState {
  initialDescription: string;
  /** The description kept so far (the best: only a gated rewrite replaces it). */
  description: string;
  /** Shares of validation queries decided right: the starting description's, the kept one's. */
  baselineScore: number;
  score: number;
  epochs: ActivationEpoch[];
  /** On the test queries at the end: the starting and the kept description. */
  test?: { initial: number; best: number; n: number };
}

export interface TestReport {
  /** `none`: no skill at all (an empty system skill), the floor of the lift card. */
  skill: 'none' | 'initial' | 'best' | 'final';
  hash: string;
  hard: number;
  soft: number;
  n: number;
  errors: number;
  byTaskType: Record<string, { total: number; hard: number }>;
  /**
   * With more than one try per test item (issue #43): pass^k over the k tries, beside pass^1 over
   * the same tries, and the share of items whose tries disagree (core/verdict/pass-k.ts).
   */
  passK?: PassK;
}

/** A lift on test as the run reports it: core/verdict/lift.ts's interval, against which skill, and the noise. */
export interface LiftReport extends LiftInterval {
  against: 'initial' | 'none';
  /** The fitted noise: miss and guess rates, and the run's own flip rate with its evidence. */
  noise: { miss: number; guess: number; flipRate: number; repeatedSamples: number };
  /** Samples per test item and skill. */
  repeats: number;
}

/** One target's test of the starting and the best skill, and the lift between them (issue #42 item 5). */
export interface TransferTarget {
  /** The target as the run's config names it: a model, "pi sim-x". */
  label: string;
  /** The run's own target, which the skill was trained under; the others confirm. */
  trained: boolean;
  /** The starting and the best skill on test under this target (one report when they are the same skill). */
  tests: TestReport[];
  lift: LiftReport;
}

/** The starting and best skills re-scored on test under other targets, and whether their ranking flips. */
/** A skill pair's validation under another target that gated the run (issue #42 item 5): first answers' pass rates. */
export interface TargetValidation {
  label: string;
  initial: number;
  best: number;
  /** Validation items both skills answered. */
  n: number;
}

export interface TransferReport {
  /** The training target first, then each confirming target in the config's order. */
  targets: TransferTarget[];
  verdict: TransferVerdict;
}

export interface RunSummary {
  baselineSelection: number;
  bestSelection: number;
  finalSelection: number | null;
  bestStep: number;
  bestOrigin: string;
  currentOrigin: string;
  totalSteps: number;
  accepts: number;
  rejects: number;
  skips: number;
  epochs: EpochStats[];
  /** The activation track's outcome: the description before and after, and on test. */
  activation?: ActivationState;
  tests: TestReport[];
  testDelta: number | null;
  finalTestDelta: number | null;
  /** The best skill's lift over the starting skill on test, noise taken out, with its interval (issue #19). */
  lift?: LiftReport;
  /** The same over no skill at all. */
  liftOverNone?: LiftReport;
  /** The lift under each target that confirms the run's skills (a runner config's `confirm`). */
  transfer?: TransferReport;
  /** The starting and best skills' validation under each other target that gated the run (`targets`). */
  gateTargets?: TargetValidation[];
  usage: Record<string, StageUsage>;
  totalCostUsd: number;
  wallTimeMs: number;
  /** Why no step was accepted, when none was (core/verdict/diagnostics.ts). */
  diagnosis?: Diagnosis;
  /** Which section of the best skill earns its tokens, when config.sectionCreditBudget asked (issue #43 item 4). */
  sectionCredit?: RunSectionCredit;
}

/** What a section credit measured: the report and what it took. */
export interface SectionCreditFigures {
  report: CreditReport;
  plan: CreditPlan;
  /** Masks scored (fewer than planned when an agent's calls ran ahead of the plan). */
  masks: number;
  /** Calls the masks made (every role's), against the budget. */
  calls: number;
  rollouts: number;
  /** Rollouts that errored: never scored. */
  errors: number;
}

/** Section credit of a run's best skill after training: its figures and cost, or why none could be made. */
export type RunSectionCredit = { budget: number } & (
  ({ ok: true; costUsd: number } & SectionCreditFigures) | { ok: false; reason: string }
);

/**
 * What a meter has counted, by stage and role (costs follow from the prices it is restored with),
 * and the completion lengths its reservations go by. Kept in the run state, so a resumed run need
 * not read every row it stored to know what it spent (issue #20 item 16).
 */
export interface MeterSnapshot {
  /** By stage and role (and price factor, when not the list price; price tag, when billed apart). */
  usage: Record<string, StageUsage & { stage: string; role: Role; priceFactor?: number; tag?: string }>;
  completionSeen: Partial<Record<Role, { n: number; tokens: number; max: number }>>;
}

/** Everything needed to continue a run after a stop (§1.10), kept in one record. */
export interface RunState {
  runId: string;
  status: RunStatus;
  /** Why the run stopped, in words a user can act on. */
  reason?: string;
  reasonKind?: string;
  config: RunConfig;
  baselineDone: boolean;
  /** The global step (1-based) to run next. */
  nextStep: number;
  /** Highest epoch whose boundary is done. */
  boundaryDoneEpoch: number;
  finalDone: boolean;
  gate: GateState;
  initialSkill: string;
  /** The initial skill's gate score on validation, once measured. */
  baselineScore?: number;
  /** Validation items the baseline stands on, and what the run had spent when it was measured (the learning curve's first point). */
  baselineMark?: { n: number; spend: Spend; curvePassK?: PassK };
  /** The skill the current epoch started from (the "previous" skill of the next slow update). */
  epochStartSkill: string;
  schedule: ScheduleState;
  stepBuffer: BufferEntry[];
  /** Optimizer-side memory active in the current epoch ('' when none). */
  metaSkill: string;
  selectionCache: Record<string, SelectionScore>;
  /** Edits a promising rejected candidate carries to the next step (issue #8). */
  pendingEdits?: Edit[];
  /**
   * Repeated samples of one skill on one item, by `${skill hash}|${item id}`: [samples, minority,
   * passes, first sample passed (1/0)]. Their sum is the run's flip tally (core/verdict/noise.ts): how
   * stochastic the target is; the samples after the first (never chosen for disagreeing) also
   * tell its miss rate from its guess rate (core/verdict/lift.ts).
   */
  flips?: Record<string, [number, number, number?, number?]>;
  /** The current skill (by hash) and how many steps in a row found it settled (engine/settled.ts). */
  settled?: { hash: string; steps: number };
  epochStats: EpochStats[];
  /** The activation track, once it has started (config.activationTrack with trigger queries). */
  activation?: ActivationState;
  /** Agents' runs: the mean model turns per rollout at the baseline (what the estimate goes by). */
  agentTurns?: number;
  /** Conversations with a simulated user: its mean calls per conversation at the baseline (issue #31). */
  simulatorCalls?: number;
  summary?: RunSummary;
  /** The end-of-run section credit's checkpoint: masks scored and their calls (issue #43 item 4). */
  creditProgress?: { masks: number; calls: number };
  startedAt: number;
  updatedAt: number;
  /** Wall time spent running, summed over sessions. */
  elapsedMs: number;
  /**
   * The meter as last saved; `complete` when the session that saved it ended cleanly (every row
   * it stored was metered). A crashed session leaves it incomplete: the rows are counted instead.
   */
  meter?: MeterSnapshot & { complete: boolean };
}

/** The dataset a run trains on, as the engine needs it. */
export interface RunDataset {
  items: DatasetItem[];
  splits: Record<SplitName, string[]>;
  /** Tools every item is offered (the dataset's own `tools`): rollouts become agentic. */
  tools?: ToolSpec[];
}
