/** A reason to stop a run that the user can fix and then resume (DESIGN §4, §5). */
/** 'environment': an agent's environment failed (not the agent). 'review': a step waits for a person to approve its edits (engine/step/review.ts). */
export type PauseKind = 'budget' | 'error_rate' | 'llm_fatal' | 'storage' | 'user' | 'review' | 'environment';

export class PauseError extends Error {
  constructor(
    readonly kind: PauseKind,
    message: string,
  ) {
    super(message);
    this.name = 'PauseError';
  }
}

export function isPauseError(e: unknown): e is PauseError {
  return e instanceof Error && e.name === 'PauseError';
}

/** What an AbortSignal's reason says the user wanted. */
export type StopRequest = 'pause' | 'cancel';

export function stopRequestOf(signal: AbortSignal | undefined): StopRequest | null {
  if (!signal?.aborted) return null;
  return signal.reason === 'cancel' ? 'cancel' : 'pause';
}
