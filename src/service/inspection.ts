/**
 * Reading a run's history through the store port: one step in full (the inspector), the learning
 * curve's marks, a text's blame, and the review a run paused for (steering) with the person's decision on it.
 */
import {
  getStepArtifact,
  readStepArtifacts,
  rebuildCandidate,
  writeStepArtifact,
  type ReviewRequest,
  type StepArtifacts,
} from '../engine/artifacts';
import type { OptimizerCallRecord, RolloutRow, StepRecord } from '../engine/types';
import { curveMarks as marksOf } from '../engine/curve-marks';
import type { CurveMark } from '../core/report/learning-curve';
import { blameSkill as blame, type SkillBlame } from './skill-blame';
import { readStepRecords } from './step-records';
import { fail, type Outcome, type ServiceDeps } from './ports';

export interface StepDetail {
  step: StepRecord;
  rollouts: RolloutRow[];
  gateRollouts: RolloutRow[];
  /** The current skill's rows on the same validation items (for improved / regressed / unchanged). */
  currentRollouts: RolloutRow[];
  calls: OptimizerCallRecord[];
  /** The step's artifacts by name (engine/artifacts.ts). */
  artifacts: Partial<StepArtifacts>;
  currentSkillBefore: string | null;
  candidateSkill: string | null;
}

/** The learning curve's marks a stored run holds (core/learning-curve.ts draws them); none for an unknown run. */
export async function curveMarks(deps: ServiceDeps, runId: string): Promise<CurveMark[]> {
  const run = await deps.records.getRun(runId);
  return run ? marksOf(run.state, await deps.records.getSteps(runId)) : [];
}

/** One step in full: its record, rows, calls, artifacts, the skill it started from and its candidate. */
export async function stepDetail(
  deps: ServiceDeps,
  runId: string,
  step: number,
): Promise<Outcome<{ detail: StepDetail }>> {
  const r = await readStepRecords(deps.records, runId, step);
  if (!r) return fail('not_found', `Step ${step} of this run has not run yet.`);
  const artifacts = readStepArtifacts(step, r.artifacts);
  // An accepted candidate is a stored version; a rejected one is rebuilt from what the step applied.
  const stored = r.step.candidateHash ? r.versions.get(r.step.candidateHash) : undefined;
  const candidate = stored ?? (r.skillBefore !== null ? rebuildCandidate(r.skillBefore, artifacts) : null);
  const { step: record, rollouts, gateRollouts, currentRollouts, calls, skillBefore } = r;
  const rows = { rollouts, gateRollouts, currentRollouts, calls };
  return {
    ok: true,
    detail: { step: record, ...rows, artifacts, currentSkillBefore: skillBefore, candidateSkill: candidate },
  };
}

/** Which version of the run introduced each line of `text`, with the step's edit, reasoning and items. */
export async function blameSkill(
  deps: ServiceDeps,
  runId: string,
  text: string,
): Promise<Outcome<{ blame: SkillBlame }>> {
  const b = await blame(deps.records, runId, text);
  return b ? { ok: true, blame: b } : fail('not_found', `That run is not in ${deps.place}.`);
}

/** What the step a run is paused at for review proposes, or why there is none. */
export async function pendingReview(
  deps: ServiceDeps,
  runId: string,
): Promise<Outcome<{ step: number; request: ReviewRequest }>> {
  const run = await deps.records.getRun(runId);
  if (!run) return fail('not_found', `That run is not in ${deps.place}.`);
  if (run.state?.reasonKind !== 'review' || run.status !== 'paused')
    return fail('invalid_input', 'This run is not waiting for a review.');
  const step = run.state.nextStep;
  const request = await getStepArtifact(deps.records.runStore(runId), runId, step, 'review_request');
  if (!request) return fail('not_found', `Step ${step} has no proposal to review.`);
  return { ok: true, step, request };
}

/**
 * Store the person's decision on a paused step's proposal — the one they were shown (`proposal`,
 * the request's id; null for a request stored without one): approved item indices, for that
 * proposal only. A decision on a proposal that has since been rebuilt is refused.
 */
export async function submitReview(
  deps: ServiceDeps,
  runId: string,
  step: number,
  approved: number[],
  proposal: string | null,
): Promise<Outcome<{ approved: number; of: number }>> {
  const p = await pendingReview(deps, runId);
  if (!p.ok) return p;
  if (p.step !== step) return fail('invalid_input', `The run waits for a review of step ${p.step}, not ${step}.`);
  // A panel opened before the step was rebuilt shows another proposal: its decision answers that one only.
  if ((p.request.proposal ?? null) !== proposal)
    return fail('invalid_input', `Step ${step}'s proposal changed since it was shown: review the new one.`);
  const n = p.request.items.length;
  const valid = [...new Set(approved)].filter((i) => Number.isInteger(i) && i >= 0 && i < n).sort((a, b) => a - b);
  // The decision names the proposal it answers: applied to no other.
  await writeStepArtifact(deps.records.runStore(runId), runId, step, 'review', {
    approved: valid,
    ...(p.request.proposal ? { answers: p.request.proposal } : {}),
  });
  return { ok: true, approved: valid.length, of: n };
}
