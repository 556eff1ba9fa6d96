/**
 * One call of the target, held to the run's budget: the prompt's tokens are set aside before it
 * is sent (a call that could push spending past the cap is not made), and settled at what the
 * reply used — a failed call that still used tokens (a reply cut off empty) is billed too. The
 * chat call, each turn of the tool loop and an agent CLI's run all go through here.
 */
import { callStageOfPhase, priceTagOfPhase } from '../../core/config/stages';
import { isLlmError, type LlmUsage } from '../ports';
import type { TargetDeps } from '../target-port';

export async function meteredCall<R extends { usage: LlmUsage }>(
  deps: Pick<TargetDeps, 'meter'>,
  phase: string,
  promptChars: number,
  call: () => Promise<R>,
): Promise<R> {
  // A confirming target's calls are billed at its own price when it has one (issue #42 item 5).
  const reservation = deps.meter.reserve('target', promptChars, 1, priceTagOfPhase(phase));
  try {
    const r = await call();
    deps.meter.settle(reservation, callStageOfPhase(phase), r.usage);
    return r;
  } catch (e) {
    if (isLlmError(e) && e.usage) deps.meter.settle(reservation, callStageOfPhase(phase), e.usage);
    else deps.meter.release(reservation);
    throw e;
  }
}

/** What the log should hear of a reply: its usage was estimated, or it was cut off at the output limit. */
export function replyNotes(
  deps: Pick<TargetDeps, 'meter'>,
  r: { usageEstimated?: boolean; finishReason?: string },
): string[] {
  const notes = [
    r.usageEstimated ? deps.meter.noteEstimated() : null,
    r.finishReason === 'length' ? deps.meter.noteCutOff() : null,
  ];
  return notes.filter((n): n is string => Boolean(n));
}
