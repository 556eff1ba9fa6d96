/**
 * A run's learning curve (issue #32): its validation score against what it had spent — training
 * target calls and cost — at each point it was measured: the baseline, every step, every epoch
 * boundary that measured a slow update. What a user looks at to decide whether more budget is
 * worth it. The figures are the ones recorded when each point happened (the meter's totals then),
 * so a resumed run draws the same curve as an unbroken one.
 */

import type { PassK } from '../verdict/pass-k';

/** What a run had spent at a moment: its target calls outside the test phases, and the cost of every call. */
export interface Spend {
  targetCalls: number;
  costUsd: number;
}

/** The starting skill's score on validation, over `n` items. */
export interface BaselineMark {
  kind: 'baseline';
  score: number;
  n: number;
  spend: Spend;
  /** pass^1, pass^k and the item flip rate over k tries per item, when the run asked (`curvePassK`). */
  passK?: PassK;
}

/** A step's candidate, or an epoch boundary's slow update, as the gate measured it. */
export interface GateMark {
  kind: 'step' | 'epoch';
  /** The step it follows (an epoch boundary: its epoch's last step). */
  step: number;
  epoch: number;
  action: string;
  /**
   * The candidate's validation score the gate decided on (its settled score: the measure the run's
   * best is in); null when nothing reached validation. Runs from before it was kept: the first tries'.
   */
  score: number | null;
  /** The mean of each item's first try, when recorded beside the settled score (a noisy target's differ). */
  firstTry?: number | null;
  n: number | null;
  /** false: the gate stopped early (its first tries' score is an upper bound). */
  complete: boolean | null;
  /** The run's best score after this point. */
  best: number;
  spend: Spend;
  passK?: PassK;
}

/** A measured point as the run recorded it (engine/curve-marks.ts makes these from its records). */
export type CurveMark = BaselineMark | GateMark;

export interface CurvePoint {
  kind: CurveMark['kind'];
  step: number;
  epoch: number;
  /** "Baseline", "Step 3", "Epoch 1 boundary". */
  label: string;
  targetCalls: number;
  costUsd: number;
  /** The score the gate decided on (settled), in the measure of `best`; null when validation never scored. */
  score: number | null;
  /**
   * The mean of each item's first try, as recorded beside `score`; on a noisy target it differs (a
   * lucky or unlucky first answer the gate asked again). The baseline's score is its first tries.
   * Null when not recorded (older runs) or without a score.
   */
  firstTry: number | null;
  /** The score's 95 % interval over the items scored (Wilson); null without a score. */
  low: number | null;
  high: number | null;
  n: number | null;
  complete: boolean;
  action: string;
  /** The measured skill was kept (the baseline is the skill a run starts from). */
  accepted: boolean;
  /** The best validation score so far: never lower than at an earlier point. */
  best: number;
  /**
   * With k tries per validation item (issue #43, `curvePassK`): pass^k (all k tries pass) beside
   * pass^1 over the same tries, and the share of items whose tries disagree; null when the point
   * was not tried k times (never estimated from fewer).
   */
  passK: PassK | null;
}

/** z for a two-sided 95 % interval. */
const Z95 = 1.959964;

/**
 * Wilson's 95 % interval for a share `p` of `n` items. Item values in [0, 1] that are not 0/1
 * (a soft or mixed gate metric) vary less than a share does, so for them it is on the wide side.
 */
export function wilsonInterval(p: number, n: number): [number, number] {
  if (!(n > 0)) return [0, 1];
  const q = Math.min(1, Math.max(0, p));
  const z2 = Z95 * Z95;
  const centre = (q + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((q * (1 - q)) / n + z2 / (4 * n * n));
  // The interval holds its own share exactly (at 0 and 1 the formula misses by a rounding error).
  return [Math.max(0, Math.min(q, centre - half)), Math.min(1, Math.max(q, centre + half))];
}

const isAccepted = (action: string) => action.includes('accept') || action === 'force_inject';

/** Points in the order the run made them: the baseline, then by step, a boundary after its last step. */
const order = (m: CurveMark) => (m.kind === 'baseline' ? -1 : m.step * 2 + (m.kind === 'epoch' ? 1 : 0));

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const finiteOrNull = (v: unknown) => v === null || finite(v);

/**
 * A mark whose figures are numbers. Marks come from stored records, and an imported bundle's may
 * hold anything (issue #39 M7): the page, the runner's `--json` and the report all draw from this
 * function, so a mark that is not made of numbers is left out here, for all of them.
 */
export function isWellFormedMark(m: unknown): m is CurveMark {
  if (!m || typeof m !== 'object') return false;
  const k = m as Partial<Record<keyof BaselineMark | keyof GateMark, unknown>>;
  const spend = k.spend as Partial<Spend> | null | undefined;
  if (!spend || typeof spend !== 'object' || !finite(spend.targetCalls) || !finite(spend.costUsd)) return false;
  if (k.kind === 'baseline') return finite(k.score) && finite(k.n);
  return (
    (k.kind === 'step' || k.kind === 'epoch') &&
    [k.step, k.epoch, k.best].every(finite) &&
    [k.score, k.n].every(finiteOrNull) &&
    typeof k.action === 'string' &&
    (k.complete === null || typeof k.complete === 'boolean')
  );
}

/** A mark's pass^k when its figures are numbers in range (an imported bundle's may not be); else null. */
export function wellFormedPassK(v: unknown): PassK | null {
  if (!v || typeof v !== 'object') return null;
  const p = v as Partial<Record<keyof PassK, unknown>>;
  const share = (x: unknown) => finite(x) && x >= 0 && x <= 1;
  const count = (x: unknown) => finite(x) && Number.isInteger(x) && x >= 0;
  const ok =
    count(p.k) &&
    (p.k as number) >= 2 &&
    [p.passAt1, p.passAtK, p.flipRate].every(share) &&
    count(p.items) &&
    count(p.short);
  return ok
    ? ({
        k: p.k,
        passAt1: p.passAt1,
        passAtK: p.passAtK,
        flipRate: p.flipRate,
        items: p.items,
        short: p.short,
      } as PassK)
    : null;
}

/** The curve from a run's marks, in the order they happened, with intervals and the best so far. */
export function learningCurve(marks: readonly unknown[]): CurvePoint[] {
  let best = -Infinity;
  const sorted = marks.filter(isWellFormedMark).sort((a, b) => order(a) - order(b));
  // A run has one k; a point of another (only a crafted bundle's) would be drawn on the wrong series.
  const k = sorted.map((m) => wellFormedPassK(m.passK)?.k).find((x) => x !== undefined);
  const passKOf = (m: CurveMark) => {
    const p = wellFormedPassK(m.passK);
    return p && p.k === k ? p : null;
  };
  return sorted.map((m): CurvePoint => {
    // A gate that stopped before its first item (the candidate could not win) measured nothing.
    const score = m.score !== null && m.n ? m.score : null;
    const interval = score !== null ? wilsonInterval(score, m.n!) : null;
    const firstTry = score === null ? null : m.kind === 'baseline' ? score : finite(m.firstTry) ? m.firstTry : null;
    const base = {
      score,
      firstTry,
      low: interval ? interval[0] : null,
      high: interval ? interval[1] : null,
      n: m.n,
      targetCalls: m.spend.targetCalls,
      costUsd: m.spend.costUsd,
      // A point without a score measured no tries either.
      passK: score !== null ? passKOf(m) : null,
    };
    if (m.kind === 'baseline') {
      best = Math.max(best, m.score);
      return {
        ...base,
        kind: 'baseline',
        step: 0,
        epoch: 0,
        label: 'Baseline',
        complete: true,
        action: 'baseline',
        accepted: true,
        best,
      };
    }
    best = Math.max(best, m.best);
    return {
      ...base,
      kind: m.kind,
      step: m.step,
      epoch: m.epoch,
      label: m.kind === 'step' ? `Step ${m.step}` : `Epoch ${m.epoch} boundary`,
      complete: m.complete !== false,
      action: m.action,
      accepted: isAccepted(m.action),
      best,
    };
  });
}
