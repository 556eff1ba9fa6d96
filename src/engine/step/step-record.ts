/**
 * The step record, built in one place from what each stage of the step decided: what the
 * rollouts saw, what the proposal counted, the gate's fields, and where the run stands after the
 * step. Every field is named here once, so a stage cannot overwrite another's by spread order.
 */
import { emptyUsage } from '../meter';
import type { GateAction, GateState } from '../../core/verdict/gate';
import type { Spend } from '../../core/report/learning-curve';
import type { StageUsage, StepRecord } from '../types';
import type { Seen } from './rollout-reflect';

/** What the aggregate and the step size decided (absent: no analyst proposed anything). */
export interface Proposed {
  nEditsMerged: number;
  editBudget: number | null;
}

/** The gate's part of the record (gate-step.ts). */
export type GateFields = Pick<
  StepRecord,
  | 'nEditsRanked'
  | 'candidateHash'
  | 'candidateSkillLen'
  | 'editApplySummary'
  | 'selectionHard'
  | 'selectionSoft'
  | 'selectionN'
  | 'selectionComplete'
  | 'selectionCacheHit'
  | 'candidateGateScore'
  | 'candidateSettledScore'
  | 'rewriteChangeSummary'
  | 'refusedBy'
  | 'curvePassK'
> & { action: GateAction };

/** Usage of each stage during the step: the meter's totals after, less those before. */
export function usageSince(after: Record<string, StageUsage>, before: Record<string, StageUsage>) {
  const out: Record<string, StageUsage> = {};
  for (const [k, a] of Object.entries(after)) {
    const b = before[k] ?? emptyUsage();
    if (a.calls === b.calls) continue;
    out[k] = {
      calls: a.calls - b.calls,
      promptTokens: a.promptTokens - b.promptTokens,
      completionTokens: a.completionTokens - b.completionTokens,
      reasoningTokens: a.reasoningTokens - b.reasoningTokens,
      costUsd: a.costUsd - b.costUsd,
    };
  }
  return out;
}

export function stepRecord(a: {
  runId: string;
  step: number;
  epoch: number;
  stepInEpoch: number;
  gateMetric: string;
  /** The score the candidate had to beat. */
  scoreBefore: number;
  seen: Seen;
  proposed: Proposed | null;
  gated: GateFields | null;
  /** The step was skipped: its skill was settled (engine/settled.ts). */
  settled?: boolean;
  /** The run's gate state after the step (appendix included). */
  after: GateState;
  timing: Record<string, number>;
  usage: Record<string, StageUsage>;
  wallTimeMs: number;
  /** Target calls of each round the step's verdicts asked again. */
  verdictRounds: number[];
  /** The meter's totals when the step ended. */
  spend: Spend;
}): StepRecord {
  const { seen, proposed, gated, after } = a;
  return {
    runId: a.runId,
    step: a.step,
    epoch: a.epoch,
    stepInEpoch: a.stepInEpoch,
    scoreBefore: a.scoreBefore,
    rolloutHard: seen.hard,
    rolloutSoft: seen.soft,
    rolloutN: seen.ok.length,
    rolloutErrors: seen.rows.length - seen.ok.length,
    batches: seen.batches,
    nFailurePatches: seen.failure.length,
    nSuccessPatches: seen.success.length,
    nEditsMerged: proposed?.nEditsMerged ?? 0,
    nEditsRanked: gated?.nEditsRanked ?? 0,
    editBudget: proposed?.editBudget ?? null,
    candidateHash: gated?.candidateHash ?? null,
    candidateSkillLen: gated?.candidateSkillLen ?? null,
    editApplySummary: gated?.editApplySummary ?? null,
    selectionHard: gated?.selectionHard ?? null,
    selectionSoft: gated?.selectionSoft ?? null,
    selectionN: gated?.selectionN ?? null,
    selectionComplete: gated?.selectionComplete ?? null,
    selectionCacheHit: gated?.selectionCacheHit ?? false,
    gateMetric: a.gateMetric,
    candidateGateScore: gated?.candidateGateScore ?? null,
    ...(gated?.candidateSettledScore !== undefined ? { candidateSettledScore: gated.candidateSettledScore } : {}),
    // Without a candidate, the step skipped: no analyst proposed anything, or no rewrite came of it.
    action: a.settled ? 'skip_settled' : (gated?.action ?? (proposed ? 'skip_no_rewrite' : 'skip_no_patches')),
    ...(gated?.rewriteChangeSummary ? { rewriteChangeSummary: gated.rewriteChangeSummary } : {}),
    ...(gated?.refusedBy ? { refusedBy: gated.refusedBy } : {}),
    ...(gated?.curvePassK ? { curvePassK: gated.curvePassK } : {}),
    currentScore: after.currentScore,
    bestScore: after.bestScore,
    bestStep: after.bestStep,
    currentOrigin: after.currentOrigin,
    bestOrigin: after.bestOrigin,
    skillLen: after.currentSkill.length,
    timing: a.timing,
    usage: a.usage,
    wallTimeMs: a.wallTimeMs,
    verdictRounds: a.verdictRounds,
    spend: a.spend,
  };
}
