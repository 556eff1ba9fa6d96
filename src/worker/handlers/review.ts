/** Steering before the gate: read what a paused step proposes, and store the person's decision. */
import type { ReviewApi } from '../api-types';
import { fail, type ApiContext } from './context';

export function reviewHandlers(c: ApiContext): ReviewApi {
  const { active } = c;
  return {
    async getReview(runId) {
      // The pause is stored and announced a moment before the run lets go of it: the proposal may
      // be read at once (the panel opens on the announcement).
      return (await c.service).pendingReview(runId);
    },

    async submitReview(runId, step, approved, proposal) {
      // A decision sent the instant the panel opened may find the run still letting go: wait a little.
      for (let i = 0; i < 40 && active.has(runId); i++) await new Promise((r) => setTimeout(r, 50));
      // A decision waits until the run has stopped.
      if (active.has(runId)) return fail('invalid_input', 'This run is not waiting for a review.');
      return (await c.service).submitReview(runId, step, approved, proposal);
    },
  };
}
