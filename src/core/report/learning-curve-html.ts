/**
 * The learning curve in the HTML report (issue #32): the page's picture as inline SVG against
 * training target calls (learning-curve-chart.ts), the curve in a sentence, and every point in a
 * table with its cost. No script; a point from an imported bundle that is not made of numbers is
 * left out, and every text is escaped.
 */
import { escapeHtml, isNum } from './html';
import {
  CURVE_SIZE,
  curveGeometry,
  curveSummary,
  hasFirstTries,
  latestPassK,
  passKText,
  pointText,
} from './learning-curve-chart';
import { wellFormedPassK } from './learning-curve';
import type { CurvePoint } from './learning-curve';

const numOrNull = (v: unknown) => v === null || isNum(v);

/** The points whose figures are numbers (a crafted bundle's may not be). */
function wellFormed(points: unknown): CurvePoint[] {
  if (!Array.isArray(points)) return [];
  return points
    .filter(
      (p: Partial<CurvePoint> | null): p is CurvePoint =>
        !!p &&
        typeof p.label === 'string' &&
        [p.step, p.targetCalls, p.costUsd, p.best].every(isNum) &&
        [p.score, p.low, p.high, p.n].every(numOrNull) &&
        (p.score === null || (isNum(p.low) && isNum(p.high))),
    )
    .map((p) => ({ ...p, firstTry: isNum(p.firstTry) ? p.firstTry : null, passK: wellFormedPassK(p.passK) }));
}

function svg(points: readonly CurvePoint[]): string {
  const { width: W, height: H, pad } = CURVE_SIZE;
  const g = curveGeometry(points, 'calls');
  const f = (n: number) => n.toFixed(1);
  const grid = g.yTicks
    .map(
      (t) =>
        `<line x1="${pad.l}" x2="${W - pad.r}" y1="${f(t.y)}" y2="${f(t.y)}" class="grid"/><text x="${pad.l - 6}" y="${f(t.y + 4)}" text-anchor="end">${t.label}</text>`,
    )
    .join('');
  const xTicks = g.xTicks
    .map((t) => `<text x="${f(t.x)}" y="${H - pad.b + 16}" text-anchor="middle">${escapeHtml(t.label)}</text>`)
    .join('');
  const midY = (pad.t + H - pad.b) / 2;
  const titles = `<text x="${(pad.l + W - pad.r) / 2}" y="${H - 4}" text-anchor="middle">${g.xLabel}</text><text x="12" y="${midY}" text-anchor="middle" transform="rotate(-90 12 ${midY})">Validation score</text>`;
  const ticks = g.unscored
    .map(
      (m) =>
        `<line x1="${f(m.x)}" x2="${f(m.x)}" y1="${H - pad.b}" y2="${H - pad.b - 6}" class="tick"><title>${escapeHtml(pointText(m.point))}</title></line>`,
    )
    .join('');
  const marks = g.scored
    .map(
      (m) =>
        `<g class="${m.point.accepted ? 'kept' : 'refused'}"><title>${escapeHtml(pointText(m.point))}</title><line x1="${f(m.x)}" x2="${f(m.x)}" y1="${f(m.yLow)}" y2="${f(m.yHigh)}" class="whisker"/><circle cx="${f(m.x)}" cy="${f(m.y)}" r="${m.point.accepted ? 4.5 : 3.5}"/></g>`,
    )
    .join('');
  // pass^k as a second series (issue #43): a line of squares, each with its point's words.
  const passK = g.passK
    ? `<path d="${g.passK.line}" class="passk"/>${g.passK.marks
        .map(
          (m) =>
            `<rect x="${f(m.x - 3)}" y="${f(m.y - 3)}" width="6" height="6" class="passk-mark"><title>${escapeHtml(pointText(m.point))}</title></rect>`,
        )
        .join('')}`
    : '';
  return `<div class="curve-scroll"><svg class="curve" viewBox="0 0 ${W} ${H}" role="img" aria-label="Learning curve: validation score against training target calls. ${escapeHtml(curveSummary(points))}">${grid}${xTicks}${titles}${g.band ? `<path d="${g.band}" class="band"/>` : ''}<path d="${g.best}" class="best"/>${ticks}${passK}${marks}</svg></div>`;
}

const flipped = (p: CurvePoint) => (p.passK ? `${(p.passK.flipRate * 100).toFixed(1)}%` : '—');

function rows(points: readonly CurvePoint[]): string {
  const k = points.find((p) => p.passK)?.passK?.k;
  const first = hasFirstTries(points);
  const row = (p: CurvePoint) =>
    [
      escapeHtml(p.label),
      String(p.targetCalls),
      `$${p.costUsd.toFixed(4)}`,
      p.score === null ? '—' : `${p.score.toFixed(3)}${p.complete === false ? ' (stopped early)' : ''}`,
      p.score === null ? '—' : `${p.low!.toFixed(2)}–${p.high!.toFixed(2)}`,
      ...(first ? [p.firstTry?.toFixed(3) ?? '—'] : []),
      p.kind === 'baseline' ? 'start' : p.accepted ? 'yes' : 'no',
      p.best.toFixed(3),
      ...(k ? [p.passK?.passAt1.toFixed(3) ?? '—', p.passK?.passAtK.toFixed(3) ?? '—', flipped(p)] : []),
    ]
      .map((c) => `<td>${c}</td>`)
      .join('');
  const head = [
    'Point',
    'Target calls',
    'Cost',
    'Validation',
    '95% interval',
    ...(first ? ['First tries'] : []),
    'Kept',
    'Best so far',
    ...(k ? ['pass^1', `pass^${k}`, 'Items flipped'] : []),
  ];
  return `<table><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${points.map((p) => `<tr>${row(p)}</tr>`).join('')}</tbody></table>`;
}

/** The latest point's pass^1, pass^k and flip rate, with what they mean; empty when no point was tried k times. */
function readout(points: readonly CurvePoint[]): string {
  const p = latestPassK(points);
  if (!p?.passK) return '';
  const k = p.passK.k;
  return `\n<p class="passk-readout">${escapeHtml(`${p.label}: ${passKText(p.passK)}.`)} Each validation item was tried ${k} times with the skill of each square; pass^${k} is the chance that all ${k} tries pass (estimated from them without bias), pass^1 is over the same tries.</p>`;
}

/** The report's section; empty when the run recorded no point (made before the curve was). */
export function curveSection(raw: unknown): string {
  const points = wellFormed(raw);
  if (!points.length) return '';
  const k = points.find((p) => p.passK)?.passK?.k;
  return `<h2>Learning curve</h2>
<p class="meta">Validation score (with its 95% interval as a band) against the training target calls spent so far: a flat best line at the right says more budget bought nothing lately.</p>
${svg(points)}
<p class="legend"><span class="k band">▮ 95% interval</span> <span class="k best">- - best so far</span> ● kept ○ not kept | no validation score${k ? ` <span class="k passk">■ pass^${k}: all ${k} tries of an item pass</span>` : ''}</p>
<p>${escapeHtml(curveSummary(points))}</p>${readout(points)}
<details><summary>The curve as a table</summary>${rows(points)}</details>
`;
}
