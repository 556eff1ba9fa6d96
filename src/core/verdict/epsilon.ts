/**
 * The one tolerance for comparing scores and gains: two numbers closer than this are equal
 * (floating-point residue of a mean, never a gain). Every verdict — the gate, the tie-break, the
 * train check, the gate rules, the paired verdict and the diagnosis — reads it from here, so a
 * change reaches all of them.
 */
export const EPSILON = 1e-12;

/** A strictly positive gain: more than the tolerance. */
export const isGain = (gain: number): boolean => gain > EPSILON;

/** No gain and no loss, within the tolerance. */
export const isTie = (gain: number): boolean => Math.abs(gain) <= EPSILON;
