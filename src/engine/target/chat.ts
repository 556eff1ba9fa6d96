/**
 * The chat call as a target: the rollout template with the skill inside, one completion, its
 * text the answer. Live, the prompt is built only once the call holds a target slot; in a
 * one-shot phase sent as a batch (engine/batch-phase.ts) the batch's line is the answer —
 * billed at the batch price, an error thrown as the live call would throw it.
 */
import { renderRollout } from '../../core/config/templates';
import { BATCH_PRICE_FACTOR } from '../../core/config/batch-api';
import { callStageOfPhase, priceTagOfPhase } from '../../core/config/stages';
import { isLlmError, type LlmResponse } from '../ports';
import type { BatchAnswer, TargetDeps, TargetJob, TargetRun } from '../target-port';
import { meteredCall, replyNotes } from './metered-call';

/** A batch line's answer as a live call's: billed at the batch price, an error thrown as the call would. */
function fromBatch(deps: TargetDeps, phase: string, answer: BatchAnswer): LlmResponse {
  if (answer.usage)
    deps.meter.add(callStageOfPhase(phase), 'target', answer.usage, BATCH_PRICE_FACTOR, 1, priceTagOfPhase(phase));
  if (isLlmError(answer)) throw answer;
  return answer;
}

/** The one completion of a job, live or from its batch. */
async function answerOf(job: TargetJob, deps: TargetDeps): Promise<LlmResponse> {
  deps.onCall();
  if (job.batched) return fromBatch(deps, job.phase, job.batched);
  return deps.slots.target.run(() => {
    const m = renderRollout(deps.rolloutTemplate, job.skill, job.item, deps.config.rollout.contextLimit);
    return meteredCall(deps, job.phase, m.system.length + m.user.length, () =>
      deps.llm.complete({
        role: 'target',
        stage: 'rollout',
        messages: [
          { role: 'system', content: m.system },
          { role: 'user', content: m.user },
        ],
        signal: deps.signal,
      }),
    );
  });
}

/** The chat call as a target's run: the reply's text is the answer. */
export async function runChat(job: TargetJob, deps: TargetDeps): Promise<TargetRun> {
  const res = await answerOf(job, deps);
  return { answer: res.text, usage: res.usage, messages: [], episode: null, notes: replyNotes(deps, res) };
}
