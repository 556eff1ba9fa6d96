/**
 * The typed contract of what a run records besides its step records (issue #10): the value of
 * each artifact a step or an epoch's end writes, and the only functions that write and read
 * them. The engine's stages write through `putStepArtifact` / `putEpochArtifact`; the run
 * service (its report, blame, review and step detail) reads back with `getStepArtifact` and
 * `readStepArtifacts`. Work under way checkpoints itself here too: an agent's trajectory so far
 * and a phase sent as a batch (`putCheckpoint`, `getCheckpoint`, `dropCheckpoint`). No key is
 * spelled out anywhere else (keys.ts holds the format).
 */
import type { GateRuleVerdict } from '../core/verdict/gate-rules';
import type { PosteriorFigures } from '../core/verdict/paired-verdict';
import { applyPatch, type Edit, type EditReportRow, type Patch } from '../core/skill/edits';
import type { DropReason } from '../core/skill/edit-screen';
import type { LrDecision } from '../core/config/learning-rate';
import type { EngineContext } from './context';
import type { LlmUsage, RunStore } from './ports';
import type { ArtifactRecord, EvidenceRecord } from './types';
import type { JsonObject } from '../core/basics/json-extract';
import { checkpointKey, epochKey, stepKey } from './keys';
import type { TrajectoryEntry } from '../core/agent/trajectory';

// The values of the appendix and review artifacts live here, beside the others: the stages that
// write them import this module, never the other way round (issue #21: no type circle).
export interface AppendixFlush {
  added: string[];
  notesBefore: number;
  notesAfter: number;
  /** The consolidation call's outcome; null when none was needed. */
  consolidated: { from: number; to: number; used: boolean } | null;
  /** The current skill's validation score before and after the notes (null when it did not change). */
  scoreBefore: number;
  scoreAfter: number | null;
}

export interface ReviewRequest {
  step: number;
  /** One entry per edit (patch mode) or one for the whole rewrite. */
  items: { label: string; detail: string }[];
  /** Patch mode: the edits themselves, so a page can preview any subset. */
  edits?: Edit[];
  reasoning: string;
  skillBefore: string;
  candidate: string;
  /** Identity of the proposal (skill before, candidate, edits): a decision answers this one only. */
  proposal?: string;
}

export interface ReviewDecision {
  /** Indices into the request's items that the person approved. */
  approved: number[];
  /** The proposal the decision answered (its request's `proposal`). */
  answers?: string;
}

/** The best skill re-checked with fresh samples before a promotion (engine/validation-score.ts), as recorded. */
export interface RecheckRecord {
  /** The candidate still beats the best with the fresh samples counted. */
  confirmed: boolean;
  /** The candidate's mean over its fresh samples alone: an estimate no selection has biased. */
  fresh: number;
  n: number;
  /** Both skills' scores over every sample each holds, and the gain. */
  best: number;
  candidate: number;
  gain: number;
  calls: number;
}

export interface ScreenedArtifact {
  pool: number;
  kept: number;
  carried: number;
  dropped: { index: number; op: string; target: string; content: string; reason: DropReason }[];
}

interface Side {
  hard: number;
  soft: number;
}

/** An item delta as artifacts store it: `fixed` are the items that now pass. */
export interface DeltaSummary {
  n: number;
  regressed: string[];
  fixed: string[];
  before: Side;
  after: Side;
}

export interface CheckArtifact extends DeltaSummary {
  complete: boolean;
  improved: boolean;
  strict: boolean;
  calls: number;
  /** The item-by-item verdict with its statistics (issue #19; absent in older runs). */
  verdict?: VerdictRecord;
  resampleCalls?: number;
  /** An undecided screen's extra samples and how its verdict moved (issue #40). */
  evidence?: EvidenceRecord;
}

/** A neutral candidate's look one step ahead: what still failed, the edits added, and the extended bundle's check. */
export interface LookAheadArtifact {
  failing: string[];
  /** Edits the analysts proposed (merged), and those ranked into the bundle. */
  proposed: number;
  added: Edit[];
  /** The extended bundle's check on the same train items (null: nothing was added). */
  after: DeltaSummary | null;
  /** Posterior checks: train items the extended bundle gained minus lost, in expectation (issue #40). */
  expectedGain?: number | null;
  /** The extended bundle went on to the gate. */
  taken: boolean;
}

/** Riders (issue #43): each edit of a bundle that gained train items, left out on those gains. */
export interface RidersArtifact {
  /** The gained train items each left-out edit was scored on. */
  gains: string[];
  /** Edits that name a gained item (a word of theirs in its question or answer): their own evidence, not probed. */
  named?: { index: number; edit: Edit }[];
  /** Per edit probed: the gains the bundle without it lost (none: a rider). */
  probes: { index: number; edit: Edit; lost: string[] }[];
  /** The riders left out of the bundle (empty: none, or every edit alone was one). */
  dropped: Edit[];
  /** The bundle without them, checked on the same train items (null: not checked). */
  after: DeltaSummary | null;
  /** The bundle without them went on to the gate. */
  taken: boolean;
}

/** An edit only one trajectory supports, held at a step until a second failure shows it (issue #43). */
export interface HeldEdit {
  edit: Edit;
  step: number;
}

/** Held edits after a step: its own singles and earlier ones still waiting, and those released. */
export interface HeldArtifact {
  held: HeldEdit[];
  /** Held edits a second failure showed again this step: they joined the pool, their supports summed. */
  released: Edit[];
}

export interface RepairArtifact {
  regressed: string[];
  fixed: string[];
  after: DeltaSummary | null;
  repaired: boolean;
  dropped: Edit[];
  added: Edit[];
  reasoning: string;
  /** Each repair round and leave-one-out blame, in order (issue #19; absent in older runs). */
  steps?: RepairStep[];
  /** Which checked bundle went on to the gate. */
  chosen?: 'proposed' | 'repaired' | 'pruned';
}

/** An edit left out on a few items: which regressed items it restored and which gains it lost. */
export interface BlameProbe {
  index: number;
  restored: string[];
  lost: string[];
}

export type RepairStep =
  | {
      kind: 'repair';
      round: number;
      changed: boolean;
      dropped: Edit[];
      added: Edit[];
      reasoning: string;
      after: DeltaSummary | null;
    }
  | { kind: 'blame'; round: number; probes: BlameProbe[]; dropped: Edit[]; after: DeltaSummary | null };

/** A paired verdict as artifacts store it (core/verdict/paired-verdict.ts). */
export interface VerdictRecord {
  n: number;
  improved: string[];
  regressed: string[];
  /** One-sided exact sign test of the candidate winning this many of the items the two disagree on. */
  pValue: number;
  /** Items asked again, and those still split when their samples ran out. */
  resampled: number;
  unsettled: number;
  /** Votes an outcome needed over the other to count as settled. */
  margin: number;
  /** Posterior verdicts (issue #32): how sure it was, either way, and the expected items gained. */
  posterior?: PosteriorFigures;
}

export interface TieBreakRecord {
  accepted: boolean;
  regressed: string[];
  fixed: string[];
}

export interface GateArtifact {
  phase: string;
  currentHash: string;
  candidateHash: string;
  cacheHit: boolean;
  score: { hard: number; soft: number; n: number; complete: boolean } | null;
  gateScore: number | null;
  mustBeat: number | null;
  action: string;
  /** The train check rejected the candidate: validation was not spent on it. */
  skippedByCheck: boolean;
  /** The candidate was the current skill (its edits applied to nothing): rejected without a validation call (issue #40). */
  unchanged?: boolean;
  /** Older runs: both skills' scores on the items both scored, when rows had errored. */
  commonItems?: { current: number; candidate: number; n: number } | null;
  /** Both skills' settled gate scores on the items both were scored on, the gain, and the calls (issue #19). */
  compared?: { current: number; candidate: number; gain: number; calls: number; resampleCalls: number } | null;
  /** The item-by-item verdict against the current skill (issue #19). */
  verdict?: VerdictRecord | null;
  /** The cautious flip rate the step's verdicts settled items with. */
  flipUpper?: number;
  /** The re-check of a would-be new best on fresh samples (issue #19). */
  recheck?: RecheckRecord | null;
  carried: number;
  tieBreak: TieBreakRecord | null;
  /** The gate rule's verdict on an accept (absent under the mean rule and in older runs). */
  rule?: GateRuleVerdict | null;
  /** An undecided posterior verdict that asked for more evidence before deciding (issue #40). */
  evidence?: EvidenceRecord | null;
  /** pass^k of both sides on validation when the run asks that it not fall (issue #43). */
  stability?: StabilityRecord | null;
  /** What each other target found of an accepted candidate, and which refused it (issue #42 item 5). */
  targets?: OthersVerdict | null;
}

/** What the stability criterion measured: both sides' pass^k on the same items, and whether it held. */
export interface StabilityRecord {
  k: number;
  reference: number;
  candidate: number;
  /** Items both sides were scored on. */
  items: number;
  /** Target calls the extra tries took. */
  calls: number;
  /** The candidate's pass^k did not fall below the reference's. */
  held: boolean;
}

/** What an undecided gate bought: a value type of its own (types.ts), the activation track's state holds it too. */
export type { EvidenceRecord };

export interface LrDecisionArtifact extends LrDecision {
  reasoning: unknown;
  confidence: unknown;
  risk_notes: unknown;
}

/** What a whole-skill update (rewrite or full-rewrite mode) proposed and wrote. */
export interface RewriteArtifact {
  mode: 'rewrite' | 'full_rewrite';
  /** The merged revise suggestions (rewrite) or the merged whole skills' titles (full rewrite). */
  merged: JsonObject[];
  /** The suggestions the rewrite integrated, after ranking (rewrite mode). */
  selected: JsonObject[];
  reasoning: string;
  changeSummary: string[];
  /** The candidate skill, protected blocks restored; null when the rewrite produced nothing. */
  skill: string | null;
}

/** Every artifact a step may write, by name (its key is `${stepKey(step)}/${name}`). */
export interface StepArtifacts {
  merged: Patch;
  lr_decision: LrDecisionArtifact;
  screened: ScreenedArtifact;
  ranked: Patch;
  check: CheckArtifact;
  repair: RepairArtifact;
  /** Looking one step ahead from a neutral candidate (issue #32). */
  ahead: LookAheadArtifact;
  /** Looking one step ahead at the items a repaired bundle still broke (issue #40). */
  escape: LookAheadArtifact;
  /** Edits that carried no gain, left out before the gate (issue #43). */
  riders: RidersArtifact;
  /** Edits one trajectory supports, held until a second failure shows them (issue #43). */
  held: HeldArtifact;
  /** The bundle applied to the current skill: the ranked edits, repaired. */
  candidate_edits: Edit[];
  apply_report: EditReportRow[];
  gate: GateArtifact;
  rewrite: RewriteArtifact;
  appendix: AppendixFlush;
  review_request: ReviewRequest;
  review: ReviewDecision;
}

export type StepArtifactName = keyof StepArtifacts;

/** How an item fared from an epoch's start skill to its end skill. */
export type PairCategory = 'improved' | 'regressed' | 'persistent_fail' | 'stable_success';

/** One item of an epoch's comparison of its start and end skills (the slow update's evidence). */
export interface PairArtifact {
  id: string;
  task: string;
  category: PairCategory;
  prevHard: number;
  currHard: number;
}

/** Every artifact an epoch's end may write, by name (its key is `${epochKey(epoch)}/${name}`). */
export interface EpochArtifacts {
  pairs: PairArtifact[];
}

const NAMES: readonly StepArtifactName[] = [
  'merged',
  'lr_decision',
  'screened',
  'ranked',
  'check',
  'repair',
  'ahead',
  'escape',
  'riders',
  'candidate_edits',
  'apply_report',
  'gate',
  'rewrite',
  'appendix',
  'review_request',
  'review',
];

/** Write one of a step's artifacts (`key` is the step's key, keys.ts). */
export function putStepArtifact<N extends StepArtifactName>(
  ctx: EngineContext,
  key: string,
  name: N,
  value: StepArtifacts[N],
): Promise<void> {
  return ctx.store.putArtifact({ runId: ctx.runId, key: `${key}/${name}`, value });
}

/** Write one of a step's artifacts from outside a run (the person's review decision, through the service). */
export function writeStepArtifact<N extends StepArtifactName>(
  store: Pick<RunStore, 'putArtifact'>,
  runId: string,
  step: number,
  name: N,
  value: StepArtifacts[N],
): Promise<void> {
  return store.putArtifact({ runId, key: `${stepKey(step)}/${name}`, value });
}

/** Remove one of a step's artifacts (what no longer describes what the step gated). */
export function deleteStepArtifact(ctx: EngineContext, key: string, name: StepArtifactName): Promise<void> {
  return ctx.store.deleteArtifact(ctx.runId, `${key}/${name}`);
}

/** One of a step's artifacts, typed by its name; undefined when the step did not write it. */
export async function getStepArtifact<N extends StepArtifactName>(
  store: Pick<RunStore, 'getArtifact'>,
  runId: string,
  step: number,
  name: N,
): Promise<StepArtifacts[N] | undefined> {
  return (await store.getArtifact(runId, `${stepKey(step)}/${name}`))?.value as StepArtifacts[N] | undefined;
}

/** Write one of an epoch end's artifacts. */
export function putEpochArtifact<N extends keyof EpochArtifacts>(
  ctx: EngineContext,
  epoch: number,
  name: N,
  value: EpochArtifacts[N],
): Promise<void> {
  return ctx.store.putArtifact({ runId: ctx.runId, key: `${epochKey(epoch)}/${name}`, value });
}
/** Work under way, checkpointed until its rows are written: each kind's value. */
export interface Checkpoints {
  /** An agent's trajectory so far (engine/target/tool-loop.ts), under its row's cache key. */
  trajectory: { entries: TrajectoryEntry[]; usage: LlmUsage };
  /** A one-shot phase sent as a batch (engine/batch-phase.ts), under the phase: reused for the same skill and items only. */
  batch: { batchId: string; skillHash: string; itemIds: string[] };
}

/** Checkpoint work under way (`of`: the trajectory's cache key, the batch's phase). */
export function putCheckpoint<K extends keyof Checkpoints>(
  store: Pick<RunStore, 'putArtifact'>,
  runId: string,
  kind: K,
  of: string,
  value: Checkpoints[K],
): Promise<void> {
  return store.putArtifact({ runId, key: checkpointKey(kind, of), value });
}

/** The checkpoint of work under way, typed by its kind; undefined when there is none. */
export async function getCheckpoint<K extends keyof Checkpoints>(
  store: Pick<RunStore, 'getArtifact'>,
  runId: string,
  kind: K,
  of: string,
): Promise<Checkpoints[K] | undefined> {
  return (await store.getArtifact(runId, checkpointKey(kind, of)))?.value as Checkpoints[K] | undefined;
}

/** Drop a checkpoint whose work is done (its rows hold it) or must start again. */
export function dropCheckpoint(
  store: Pick<RunStore, 'deleteArtifact'>,
  runId: string,
  kind: keyof Checkpoints,
  of: string,
): Promise<void> {
  return store.deleteArtifact(runId, checkpointKey(kind, of));
}

/** A step's artifacts by name, from its stored records (the records of other steps are ignored). */
export function readStepArtifacts(step: number, records: readonly ArtifactRecord[]): Partial<StepArtifacts> {
  const prefix = `${stepKey(step)}/`;
  const out: Partial<Record<StepArtifactName, unknown>> = {};
  for (const r of records) {
    const name = r.key.startsWith(prefix) ? (r.key.slice(prefix.length) as StepArtifactName) : null;
    if (name && NAMES.includes(name)) out[name] = r.value;
  }
  return out as Partial<StepArtifacts>;
}

/**
 * The candidate a step gated. A rejected candidate is not a stored version, so it is rebuilt
 * from the skill the step started from and the bundle it applied (older runs: the ranked edits).
 */
export function rebuildCandidate(before: string, artifacts: Partial<StepArtifacts>): string | null {
  // A rewrite the person vetoed gated the skill the step started from.
  if (artifacts.rewrite)
    return artifacts.review && !artifacts.review.approved.includes(0) ? before : artifacts.rewrite.skill;
  if (!artifacts.apply_report) return null;
  const edits = artifacts.candidate_edits ?? artifacts.ranked?.edits;
  return edits ? applyPatch(before, edits).skill : null;
}

/** What one other target found of a candidate against the skill it met. */
export interface TargetCheck {
  label: string;
  /** Worse: the posterior's "worse" likelier than not, or (mean verdicts) a settled loss beyond a tie. */
  worse: boolean;
  /** Both skills' scores on the items both were scored on (settled values; posterior: expected pass rates). */
  reference: number;
  candidate: number;
  n: number;
  /** Posterior verdicts: the chances the candidate is better and worse on this target. */
  pBetter: number | null;
  pWorse: number | null;
  /** Every validation item was scored (an early stop: surely worse before the last). */
  complete: boolean;
  calls: number;
}

/** The other targets' verdict: held when none found the candidate worse; the first that did refused it. */
export interface OthersVerdict {
  held: boolean;
  refusedBy: string | null;
  checks: TargetCheck[];
}
