/** Steering before the gate: read what a paused step proposes, and store the person's decision. */
import { stepKey } from '../../engine/keys';
import type { ReviewRequest } from '../../engine/artifacts';
import { IdbRunStore } from '../../storage/idb-run-store';
import { getRun } from '../../storage/runs-repo';
import type { ReviewApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function reviewHandlers(c: ApiContext): ReviewApi {
  const { dbp, active } = c;
  /** The request of the step a run is paused at for review, or why there is none. */
  async function pending(runId: string, forWriting: boolean) {
    const db = await dbp;
    const run = await getRun(db, runId);
    if (!run) return fail('not_found', 'That run is not in this browser.');
    // The pause is stored and announced a moment before the run lets go of it: the proposal may be
    // read at once (the panel opens on the announcement); a decision waits until the run has stopped.
    if (run.state?.reasonKind !== 'review' || run.status !== 'paused' || (forWriting && active.has(runId)))
      return fail('invalid_input', 'This run is not waiting for a review.');
    const step = run.state.nextStep;
    const stored = await new IdbRunStore(db).getArtifact(runId, `${stepKey(step)}/review_request`);
    if (!stored) return fail('not_found', `Step ${step} has no proposal to review.`);
    return { ok: true as const, step, request: stored.value as ReviewRequest };
  }
  return {
    async getReview(runId) {
      return pending(runId, false);
    },

    async submitReview(runId, step, approved, proposal) {
      // A decision sent the instant the panel opened may find the run still letting go: wait a little.
      for (let i = 0; i < 40 && active.has(runId); i++) await new Promise((r) => setTimeout(r, 50));
      const p = await pending(runId, true);
      if (!p.ok) return p;
      if (p.step !== step) return fail('invalid_input', `The run waits for a review of step ${p.step}, not ${step}.`);
      // A panel opened before the step was rebuilt shows another proposal: its decision answers that one only.
      if ((p.request.proposal ?? null) !== proposal)
        return fail('invalid_input', `Step ${step}'s proposal changed since it was shown: review the new one.`);
      const n = p.request.items.length;
      const valid = [...new Set(approved)].filter((i) => Number.isInteger(i) && i >= 0 && i < n).sort((a, b) => a - b);
      await new IdbRunStore(await dbp).putArtifact({
        runId,
        key: `${stepKey(step)}/review`,
        // The decision names the proposal it answers: applied to no other.
        value: { approved: valid, ...(p.request.proposal ? { answers: p.request.proposal } : {}) },
      });
      return { ok: true, approved: valid.length, of: n };
    },
  };
}
