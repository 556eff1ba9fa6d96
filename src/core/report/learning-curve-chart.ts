/**
 * The learning curve's chart as geometry (core/learning-curve.ts): scales, ticks, the interval
 * band, the best-so-far line and the marks, in one place — the page draws it with React, the HTML
 * report as inline SVG, so both show the same picture. Also the curve said in one sentence, for
 * screen readers and the report's text.
 */
import type { CurvePoint } from './learning-curve';
import type { PassK } from '../verdict/pass-k';

/** What the x axis counts: training target calls, or what the run had cost. */
export type CurveAxis = 'calls' | 'cost';

export interface CurveSize {
  width: number;
  height: number;
  pad: { l: number; r: number; t: number; b: number };
}

/** The report's size; the page draws at its own width, one unit a pixel, so its text never shrinks. */
export const CURVE_SIZE: CurveSize = { width: 640, height: 260, pad: { l: 58, r: 16, t: 12, b: 44 } };

/** The size at a width in pixels (a phone's included). */
export const curveSizeAt = (width: number): CurveSize => ({ ...CURVE_SIZE, width: Math.max(280, Math.round(width)) });

export interface CurveMarkAt {
  x: number;
  y: number;
  /** The interval's ends, drawn as a whisker. */
  yLow: number;
  yHigh: number;
  point: CurvePoint;
}

export interface CurveGeometry {
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
  /** The interval as a band through the scored points (empty below two). */
  band: string;
  /** The best score so far, as a step line through every point. */
  best: string;
  /** Points the gate scored. */
  scored: CurveMarkAt[];
  /** Points that spent calls without a validation score (a skip, a candidate refused before the gate): a tick on the axis. */
  unscored: { x: number; point: CurvePoint }[];
  /**
   * pass^k as a second series (issue #43), through the points tried k times (all of one k); null
   * when no point was. Its marks are not drawn where a point has no pass^k: the line skips them.
   */
  passK: { k: number; line: string; marks: { x: number; y: number; point: CurvePoint }[] } | null;
  xLabel: string;
}

const xOf = (p: CurvePoint, axis: CurveAxis) => (axis === 'calls' ? p.targetCalls : p.costUsd);

/** A round step for about `count` ticks up to `max`. */
function niceStep(max: number, count: number): number {
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/** A figure on the x axis: calls as a count, cost in dollars with the digits its size needs. */
export function formatAxisValue(v: number, axis: CurveAxis): string {
  if (axis === 'calls') return v >= 10_000 ? `${Math.round(v / 1000)}k` : String(Math.round(v));
  if (v === 0) return '$0';
  return v >= 1 ? `$${v.toFixed(2)}` : `$${v.toPrecision(2)}`;
}

export function curveGeometry(
  points: readonly CurvePoint[],
  axis: CurveAxis,
  size: CurveSize = CURVE_SIZE,
): CurveGeometry {
  const { width: W, height: H, pad } = size;
  const top = Math.max(0, ...points.map((p) => xOf(p, axis)));
  // About one tick per 110 px, so the labels never touch.
  const step = top > 0 ? niceStep(top, Math.max(2, Math.min(6, Math.floor((W - pad.l - pad.r) / 110)))) : 1;
  const xMax = top > 0 ? Math.ceil(top / step) * step : 1;
  const x = (v: number) => pad.l + (v / xMax) * (W - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - Math.min(1, Math.max(0, v))) * (H - pad.t - pad.b);
  const f = (n: number) => n.toFixed(1);
  const xTicks = Array.from({ length: Math.round(xMax / step) + 1 }, (_, i) => i * step).map((v) => ({
    x: x(v),
    label: formatAxisValue(v, axis),
  }));
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((v) => ({ y: y(v), label: v.toFixed(2) }));
  const scored = points
    .filter((p) => p.score !== null)
    .map((p) => ({
      x: x(xOf(p, axis)),
      y: y(p.score!),
      yLow: y(p.low ?? p.score!),
      yHigh: y(p.high ?? p.score!),
      point: p,
    }));
  const band =
    scored.length < 2
      ? ''
      : `M${scored.map((m) => `${f(m.x)},${f(m.yHigh)}`).join('L')}L${[...scored]
          .reverse()
          .map((m) => `${f(m.x)},${f(m.yLow)}`)
          .join('L')}Z`;
  const best = points
    .map((p, i) => {
      const px = f(x(xOf(p, axis)));
      const py = f(y(p.best));
      return i ? `H${px}V${py}` : `M${px},${py}`;
    })
    .join('');
  const unscored = points.filter((p) => p.score === null).map((p) => ({ x: x(xOf(p, axis)), point: p }));
  const k = points.find((p) => p.passK)?.passK?.k;
  const triedK = points
    .filter((p) => p.passK && p.passK.k === k)
    .map((p) => ({ x: x(xOf(p, axis)), y: y(p.passK!.passAtK), point: p }));
  return {
    xTicks,
    yTicks,
    band,
    best,
    scored,
    unscored,
    passK:
      k === undefined ? null : { k, line: `M${triedK.map((m) => `${f(m.x)},${f(m.y)}`).join('L')}`, marks: triedK },
    xLabel: axis === 'calls' ? 'Training target calls' : 'Cost so far (USD)',
  };
}

/** One point in words (a mark's tooltip, a table's row). */
export function pointText(p: CurvePoint): string {
  const score =
    p.score === null
      ? 'no validation score'
      : `${p.score.toFixed(3)} (95% ${p.low!.toFixed(2)}–${p.high!.toFixed(2)}, ${p.n} items${p.complete ? '' : ', stopped early'})`;
  const kept = p.kind === 'baseline' ? '' : p.accepted ? ', kept' : ', not kept';
  const firstTry = differingFirstTry(p);
  const first = firstTry !== null ? `; first tries ${firstTry.toFixed(3)}` : '';
  const tries = p.passK ? `; ${passKText(p.passK)}` : '';
  return `${p.label}: ${score}${kept}${first}${tries}; best so far ${p.best.toFixed(3)}; ${p.targetCalls} target calls, ${formatAxisValue(p.costUsd, 'cost')}`;
}

/** pass^1, pass^k and the flip rate of a point's k tries per item, in words. */
export function passKText(p: PassK): string {
  const short = p.short ? ` (${p.short} more left out: errored tries)` : '';
  return (
    `pass^1 ${p.passAt1.toFixed(3)}, pass^${p.k} ${p.passAtK.toFixed(3)} over ${p.k} tries of ${p.items} items` +
    `${short}, ${Math.round(p.flipRate * 100)}% of items flipped`
  );
}

/** The latest point tried k times, for the chart's readout; null when none was. */
export const latestPassK = (points: readonly CurvePoint[]): CurvePoint | null =>
  points.findLast((p) => p.passK !== null) ?? null;

/** A point's first tries where they differ from its score in the figures shown (three decimals); else null. */
export const differingFirstTry = (p: CurvePoint): number | null =>
  p.firstTry !== null && p.score !== null && p.firstTry.toFixed(3) !== p.score.toFixed(3) ? p.firstTry : null;

/** Whether any point's first tries scored otherwise than the gate settled (a noisy target): the chart says which it draws. */
export const hasFirstTries = (points: readonly CurvePoint[]): boolean =>
  points.some((p) => differingFirstTry(p) !== null);

/**
 * The curve in one sentence: where it started, where the best stands, and what the last stretch
 * bought — in the one measure the dots, the band and the best line are drawn in.
 */
export function curveSummary(points: readonly CurvePoint[]): string {
  if (!points.length) return 'No point of the learning curve yet.';
  const first = points[0];
  const last = points[points.length - 1];
  const reached = points.find((p) => p.best === last.best)!;
  const kept = points.filter((p) => p.kind !== 'baseline' && p.accepted).length;
  const since = last.targetCalls - reached.targetCalls;
  return (
    `${points.length} points, ${kept} kept. Validation ${first.score?.toFixed(3) ?? '—'} at ${first.targetCalls} target calls; ` +
    `best ${last.best.toFixed(3)}, reached at ${reached.targetCalls} calls (${formatAxisValue(reached.costUsd, 'cost')})` +
    (since > 0 ? `; ${since} calls since then without a better score.` : ', the latest point.') +
    (hasFirstTries(points) ? ' Scores are as the gate settled them; first tries differ (in the table).' : '')
  );
}
