/**
 * Stages 3–5 of a step: the analysts' proposals merged (aggregate.ts), the step size chosen
 * (choose-budget.ts), and the candidate built — a patch of ranked, checked edits (candidate.ts) or
 * a whole-skill rewrite (rewrite-candidate.ts). Returns what it decided; run-step.ts writes it.
 */
import type { Edit } from '../../core/skill/edits';
import type { NoisePolicy } from '../../core/verdict/noise';
import type { ScheduleState } from '../../core/config/schedules';
import { describeSuggestion, normaliseSuggestion } from '../../core/skill/update-modes';
import { putStepArtifact } from '../artifacts';
import type { StageTimer } from '../context';
import type { TrainSession } from '../session';
import { aggregate, mergedPatch } from './aggregate';
import { buildCandidate, type Candidate } from './candidate';
import { chooseBudget } from './choose-budget';
import { describeEdit } from './rank-edits';
import { buildRewriteCandidate } from './rewrite-candidate';
import type { Seen } from './rollout-reflect';
import type { Proposed } from './step-record';

export interface ProposeInput {
  key: string;
  step: number;
  epoch: number;
  current: string;
  seen: Seen;
  schedule: ScheduleState;
  /** Edits a promising rejected candidate left for this step. */
  pending: readonly Edit[];
  policy: NoisePolicy;
  metaText: string;
  bufferText: string;
}

export interface Proposal {
  proposed: Proposed;
  /** The stepped schedule (fixed step sizes), for the step to write. */
  schedule?: ScheduleState;
  /** Null when a rewrite mode wrote nothing usable (the step skips). */
  cand: Candidate | null;
}

export async function propose(session: TrainSession, a: ProposeInput, timer: StageTimer): Promise<Proposal> {
  const { ctx } = session;
  const { key, current, seen, metaText, bufferText } = a;
  session.stage('aggregate', a.step, a.epoch);
  const agg = await timer.time('aggregate', () => aggregate(ctx, key, seen.failure, seen.success, current, metaText));
  const mode = ctx.config.updateMode;
  // Patch mode's items are edits; the rewrite modes keep theirs in the rewrite artifact.
  const merged = mode === 'patch' ? mergedPatch(agg.merged) : null;
  if (merged) await putStepArtifact(ctx, key, 'merged', merged);

  session.stage('select', a.step, a.epoch);
  const lines = merged
    ? merged.edits.map(describeEdit)
    : agg.merged.items
        .map(normaliseSuggestion)
        .filter((x) => x !== null)
        .map(describeSuggestion);
  const sized = await timer.time('select', () =>
    chooseBudget(ctx, a.schedule, {
      key,
      current,
      lines,
      metaText,
      bufferText,
      n: seen.ok.length,
      hard: seen.hard,
      soft: seen.soft,
    }),
  );
  const budget = sized.budget ?? 0;
  const { rows } = seen;
  const { policy } = a;
  const cand: Candidate | null = await timer.time('select', () =>
    merged
      ? buildCandidate(ctx, {
          key,
          step: a.step,
          current,
          merged,
          pending: a.pending,
          budget,
          metaText,
          rows,
          policy,
          batchSeed: seen.batches[0]?.batchSeed ?? a.step,
          bufferText,
        })
      : buildRewriteCandidate(ctx, { key, current, merged: agg.merged, budget, metaText, bufferText, rows, policy }),
  );
  return {
    proposed: { nEditsMerged: agg.merged.items.length, editBudget: sized.budget },
    ...(sized.schedule ? { schedule: sized.schedule } : {}),
    cand,
  };
}
