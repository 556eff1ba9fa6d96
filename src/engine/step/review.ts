/**
 * Steering before the gate (issue #11): with "Review edits before the gate" on, a step that has
 * a candidate stores what it proposes and pauses. The person approves or vetoes each edit (a
 * whole rewrite in the rewrite modes); resuming replays the step from its memoised calls and
 * cached rollouts to the same candidate, which is rebuilt from the approved edits only, checked
 * on train again if it changed, and gated as usual. The request and the decision are stored, so
 * the pause survives reloads and the decision is part of the run's record.
 */
import { skillHash } from '../../core/basics/hash';
import { bundleOf, type Candidate } from './candidate';
import type { EngineContext } from '../context';
import { checkArtifact, checkOnTrain } from './credit-check';
import { PauseError } from '../pause';
import { okRows } from '../rollout';
import { describeEdit } from './rank-edits';
import { deleteStepArtifact, getStepArtifact, putStepArtifact, type ReviewRequest } from '../artifacts';
import type { RolloutRow } from '../types';
import type { NoisePolicy } from '../../core/verdict/noise';

/** What makes a proposal the same proposal: what the person saw. */
async function proposalOf(current: string, cand: Candidate): Promise<string> {
  // The same identity as before the proposal became a union, so a stored decision still answers it.
  const [edits, summary] = cand.kind === 'rewrite' ? [[], cand.changeSummary] : [cand.edits, null];
  return skillHash(JSON.stringify([current, cand.skill, edits, summary]));
}

/**
 * The check and repair of the proposed candidate describe what was not gated once the person
 * approved only part of it (issue #20 item 7): the repair always goes, the check unless a new
 * one of the approved edits replaces it.
 */
async function dropUnreviewedArtifacts(ctx: EngineContext, key: string, check: unknown): Promise<void> {
  await deleteStepArtifact(ctx, key, 'repair');
  if (!check) await deleteStepArtifact(ctx, key, 'check');
}

/** What the person is asked to approve: each edit (or the rewrite), the reasoning, the skill before and after. */
function reviewRequest(step: number, current: string, cand: Candidate, proposal: string): ReviewRequest {
  const items =
    cand.kind === 'rewrite'
      ? [
          {
            label: 'Rewrite of the whole skill',
            detail: cand.changeSummary.join('\n') || 'The optimizer rewrote the skill.',
          },
        ]
      : cand.edits.map((e, i) => ({
          label: `${e.op}${e.target ? ` after/at "${String(e.target).slice(0, 60)}"` : ''}`,
          detail: describeEdit(e, i),
        }));
  return {
    step,
    items,
    reasoning: cand.kind === 'rewrite' ? cand.reasoning : cand.ranked.reasoning,
    skillBefore: current,
    candidate: cand.skill,
    ...(cand.kind === 'patch' ? { edits: cand.edits } : {}),
    proposal,
  };
}

/** The candidate the person approved; pauses the run until a decision is stored. */
export async function reviewCandidate(
  ctx: EngineContext,
  a: { key: string; step: number; current: string; cand: Candidate; rows: readonly RolloutRow[]; policy: NoisePolicy },
): Promise<Candidate> {
  if (!ctx.config.reviewEdits) return a.cand;
  const { cand } = a;
  const proposal = await proposalOf(a.current, cand);
  const stored = await getStepArtifact(ctx.store, ctx.runId, a.step, 'review');
  // A decision applies to the proposal it answered, never by position to another one: a resumed
  // step can rebuild a different proposal (an analyst call that failed before succeeds now).
  const decision = stored && stored.answers === proposal ? stored : undefined;
  if (!decision) {
    const request = reviewRequest(a.step, a.current, cand, proposal);
    await putStepArtifact(ctx, a.key, 'review_request', request);
    const changed = stored
      ? ' The proposal changed since your decision (a call that had failed was made again), so it is asked again.'
      : '';
    throw new PauseError(
      'review',
      `Review step ${a.step}: ${request.items.length} proposed change${request.items.length === 1 ? '' : 's'} wait for your approval on the Train screen.${changed}`,
    );
  }
  const approved = new Set(decision.approved);
  if (cand.kind === 'rewrite') {
    if (approved.has(0)) return cand;
    // The rewrite was vetoed: the candidate is the current skill, which cannot win the gate.
    await dropUnreviewedArtifacts(ctx, a.key, null);
    return { ...cand, skill: a.current, check: null };
  }
  if (cand.edits.every((_, i) => approved.has(i))) return cand;
  const { edits, applied } = bundleOf(
    a.current,
    cand.edits.filter((_, i) => approved.has(i)),
  );
  await putStepArtifact(ctx, a.key, 'candidate_edits', edits);
  const base = okRows(a.rows);
  const check =
    ctx.config.trainCheck && applied.skill !== a.current && base.length
      ? await checkOnTrain(ctx, `${a.key}/check-reviewed`, base, a.current, applied.skill, {
          policy: a.policy,
          findRegressions: ctx.config.repairEdits,
        })
      : null;
  // The inspector shows the check of what was gated: the approved edits'.
  await dropUnreviewedArtifacts(ctx, a.key, check);
  if (check) await putStepArtifact(ctx, a.key, 'check', checkArtifact(check));
  ctx.emit({
    type: 'log',
    level: 'info',
    message: `Step ${a.step}: ${edits.length} of ${cand.edits.length} edits approved by you.`,
  });
  return {
    ...cand,
    edits,
    applied,
    skill: applied.skill,
    check,
    repair: null,
    units: { ...cand.units, ...check?.units },
  };
}
