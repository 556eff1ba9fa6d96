/**
 * The key format of everything a run stores by stage: every phase, call and artifact key of a
 * step starts with its step key, those of an epoch's end with its epoch key, the activation
 * track's with its own. One place, so writers and readers (the store's read side, the report,
 * the inspector) cannot disagree.
 */

/** "s0007": the prefix of every phase, call and artifact key of step 7. */
export const stepKey = (step: number): string => `s${String(step).padStart(4, '0')}`;

/** "e02": the prefix of the keys of epoch 2's boundary (slow update, meta skill). */
export const epochKey = (epoch: number): string => `e${String(epoch).padStart(2, '0')}`;

/**
 * "trajectory/<cache key>", "batch/<phase>": a checkpoint of work under way — an agent's
 * trajectory so far, a one-shot phase sent as a batch — dropped once its rows are written.
 */
export const checkpointKey = (kind: 'trajectory' | 'batch', of: string): string => `${kind}/${of}`;

/** "activation/e02": the prefix of the activation track's keys at epoch 2's end. */
export const activationKey = (epoch: number): string => `activation/e${String(epoch).padStart(2, '0')}`;
