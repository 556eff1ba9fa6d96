/**
 * Transfer (issue #42 item 5): does the best skill's lift over the starting one hold under other
 * targets? Each target's lift comes with its interval (lift.ts); a lift is read only where the
 * interval is clear of zero, so noise alone never makes a flip. A ranking flip is
 * - a confirming target where the best skill is surely below the starting one (its interval all
 *   below zero): the gate's choice on the training target does not hold there; or
 * - two targets whose lifts are sure and of opposite signs (the training target's own included).
 * A confirming target whose lift is below zero but whose interval holds zero is named apart: it
 * may be below, and the run cannot tell.
 */

/** One target's lift of the best skill over the starting one on test. */
export interface TargetLift {
  /** The target as the person named it: a model, "pi sim-x". */
  label: string;
  /** The run's own target (the skill was trained under it); the others confirm. */
  trained: boolean;
  /** The lift a person is shown (lift.ts shownLift). */
  shown: number;
  /** Its central interval (lift.ts liftInterval). */
  interval: [number, number];
  level: number;
}

/** Where a lift surely is: above zero, below it, or not told from zero. */
export type LiftSide = 'above' | 'below' | 'unsure';

export function liftSide(interval: readonly [number, number]): LiftSide {
  return interval[0] > 0 ? 'above' : interval[1] < 0 ? 'below' : 'unsure';
}

export interface TransferVerdict {
  /** A ranking flip as defined above. */
  flipped: boolean;
  /** Targets where the best skill is surely below the starting one. */
  below: string[];
  /** Targets where it surely lifts. */
  above: string[];
  /** Confirming targets where it scored below, within noise. */
  maybeBelow: string[];
  /** The flip, or the doubt, in a sentence; null when the lifts agree. */
  words: string | null;
}

const points = (v: number) => `${v >= 0 ? '+' : '−'}${(Math.abs(v) * 100).toFixed(1)}`;

/** A lift in words: "+50.0 points (95 % interval +40.0 to +60.0)". */
export function liftWords(l: Pick<TargetLift, 'shown' | 'interval' | 'level'>): string {
  const [lo, hi] = l.interval;
  return `${points(l.shown)} points (${Math.round(l.level * 100)} % interval ${points(lo)} to ${points(hi)})`;
}

export function transferVerdict(lifts: readonly TargetLift[]): TransferVerdict {
  const on = (side: LiftSide) => lifts.filter((l) => liftSide(l.interval) === side);
  const below = on('below');
  const above = on('above');
  const maybeBelow = on('unsure').filter((l) => !l.trained && l.shown < 0);
  const flipped = below.some((l) => !l.trained) || (below.length > 0 && above.length > 0);
  const named = (ls: readonly TargetLift[]) => ls.map((l) => `${l.label} ${liftWords(l)}`).join(', ');
  const words = flipped
    ? `Ranking flip: the best skill scores below the starting skill on ${named(below)}` +
      `${above.length ? `, while it lifts ${named(above)}` : ''} — what it learned does not hold on every target.`
    : maybeBelow.length
      ? `The best skill scored below the starting skill on ${named(maybeBelow)}, within noise (the interval holds zero): this run cannot tell whether it transfers there.`
      : null;
  return {
    flipped,
    below: below.map((l) => l.label),
    above: above.map((l) => l.label),
    maybeBelow: maybeBelow.map((l) => l.label),
    words,
  };
}
