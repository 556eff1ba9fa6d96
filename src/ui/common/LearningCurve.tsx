import { useCallback, useId, useMemo, useState } from 'react';
import { learningCurve, type CurveMark } from '../../core/report/learning-curve';
import {
  curveGeometry,
  curveSizeAt,
  curveSummary,
  hasFirstTries,
  latestPassK,
  pointText,
  type CurveAxis,
} from '../../core/report/learning-curve-chart';
import { PassK } from '../runs/PassKLine';

/**
 * The run's learning curve (issue #32): validation score with its 95 % interval as a band against
 * training target calls or cost, kept points filled, the best so far as a line — and the same
 * figures as a table for anyone who cannot read the picture. With k tries per validation item
 * (issue #43), pass^k is a second series of squares, the latest point's figures said below it.
 */
export function LearningCurve({ marks }: { marks: readonly CurveMark[] }) {
  const [axis, setAxis] = useState<CurveAxis>('calls');
  const points = useMemo(() => learningCurve(marks), [marks]);
  const [measure, px] = useWidth();
  const g = useMemo(() => curveGeometry(points, axis, curveSizeAt(px)), [points, axis, px]);
  const summaryId = useId();
  if (!points.length) return null;
  const { width: W, height: H, pad } = curveSizeAt(px);
  const priced = points.some((p) => p.costUsd > 0);
  return (
    <figure className="chart learning-curve" aria-label="Learning curve" ref={measure}>
      <div className="curve-head">
        <strong>Learning curve</strong>
        <div className="segmented" role="group" aria-label="Learning curve's x axis">
          <button type="button" aria-pressed={axis === 'calls'} onClick={() => setAxis('calls')}>
            Target calls
          </button>
          <button
            type="button"
            aria-pressed={axis === 'cost'}
            disabled={!priced}
            title={priced ? undefined : 'No prices are set for this run'}
            onClick={() => setAxis('cost')}
          >
            Cost
          </button>
        </div>
      </div>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={summaryId}>
        <title>{`Validation score against ${g.xLabel.toLowerCase()}`}</title>
        {g.yTicks.map((t) => (
          <g key={t.label}>
            <line x1={pad.l} x2={W - pad.r} y1={t.y} y2={t.y} className="grid" />
            <text x={pad.l - 6} y={t.y + 4} className="axis" textAnchor="end">
              {t.label}
            </text>
          </g>
        ))}
        {g.xTicks.map((t) => (
          <text key={t.label} x={t.x} y={H - pad.b + 16} className="axis" textAnchor="middle">
            {t.label}
          </text>
        ))}
        <text x={(pad.l + W - pad.r) / 2} y={H - 4} className="axis-title" textAnchor="middle">
          {g.xLabel}
        </text>
        <text
          x={12}
          y={(pad.t + H - pad.b) / 2}
          className="axis-title"
          textAnchor="middle"
          transform={`rotate(-90 12 ${(pad.t + H - pad.b) / 2})`}
        >
          Validation score
        </text>
        {g.band && <path d={g.band} className="curve-band" />}
        <path d={g.best} className="line-best" />
        {g.unscored.map((m) => (
          <line key={m.point.label} x1={m.x} x2={m.x} y1={H - pad.b} y2={H - pad.b - 6} className="curve-tick">
            <title>{pointText(m.point)}</title>
          </line>
        ))}
        {/* Under the dots: a point's pass^k often sits on its score, and the dot is the curve's measure. */}
        {g.passK && (
          <g className="curve-passk">
            <path d={g.passK.line} className="line-passk" />
            {g.passK.marks.map((m) => (
              <rect key={m.point.label} x={m.x - 3.5} y={m.y - 3.5} width={7} height={7} className="mark-passk">
                <title>{pointText(m.point)}</title>
              </rect>
            ))}
          </g>
        )}
        {g.scored.map((m) => (
          <g key={m.point.label} className={m.point.accepted ? 'curve-kept' : 'curve-refused'}>
            <title>{pointText(m.point)}</title>
            <line x1={m.x} x2={m.x} y1={m.yLow} y2={m.yHigh} className="curve-whisker" />
            <circle cx={m.x} cy={m.y} r={m.point.accepted ? 4.5 : 3.5} />
          </g>
        ))}
      </svg>
      <figcaption>
        <p className="legend">
          <span className="key key-band">95% interval</span>
          <span className="key key-best">best so far</span>
          <span className="key key-accept">kept</span>
          <span className="key key-refused">not kept</span>
          <span className="key key-tick">no validation score</span>
          {g.passK && (
            <span className="key key-passk">
              <PassK k={g.passK.k} />: all {g.passK.k} tries pass
            </span>
          )}
        </p>
        <p className="muted small" id={summaryId}>
          {curveSummary(points)}
        </p>
        <PassKReadout points={points} />
        <CurveTable points={points} />
      </figcaption>
    </figure>
  );
}

/** The latest point tried k times: pass^1, pass^k and the items that flipped, in words. */
function PassKReadout({ points }: { points: ReturnType<typeof learningCurve> }) {
  const point = latestPassK(points);
  if (!point?.passK) return null;
  const { label, passK: p } = point;
  return (
    <p className="passk-readout" aria-label="pass^k at the latest point">
      {label}: <PassK k={1} /> <strong>{p.passAt1.toFixed(3)}</strong>, <PassK k={p.k} />{' '}
      <strong>{p.passAtK.toFixed(3)}</strong> over {p.k} tries of {p.items} validation items;{' '}
      <strong>{Math.round(p.flipRate * 100)}%</strong> of items flipped between tries
      {p.short ? ` (${p.short} more left out: errored tries)` : ''}.
    </p>
  );
}

/** The figure's width in pixels, followed as the window changes: the chart draws one unit a pixel. */
function useWidth(): [(el: HTMLElement | null) => () => void, number] {
  const [px, setPx] = useState(640);
  // A callback ref with its cleanup (React 19): the figure appears only once the first point does.
  const measure = useCallback((el: HTMLElement | null) => {
    const seen = new ResizeObserver(([e]) => setPx(Math.round(e.contentRect.width)));
    if (el) seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return [measure, px];
}

function CurveTable({ points }: { points: ReturnType<typeof learningCurve> }) {
  const k = points.find((p) => p.passK)?.passK?.k;
  const first = hasFirstTries(points);
  return (
    <details>
      <summary>The curve as a table</summary>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Point</th>
              <th scope="col" className="num">
                Target calls
              </th>
              <th scope="col" className="num">
                Cost
              </th>
              <th scope="col" className="num">
                Validation
              </th>
              <th scope="col" className="num">
                95% interval
              </th>
              {first && (
                <th scope="col" className="num" title="The mean of each item's first try, before the gate asked again">
                  First tries
                </th>
              )}
              <th scope="col">Kept</th>
              <th scope="col" className="num">
                Best so far
              </th>
              {k && (
                <>
                  <th scope="col" className="num">
                    <PassK k={1} />
                  </th>
                  <th scope="col" className="num">
                    <PassK k={k} />
                  </th>
                  <th scope="col" className="num">
                    Items flipped
                  </th>
                </>
              )}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <th scope="row">{p.label}</th>
                <td className="num">{p.targetCalls}</td>
                <td className="num">${p.costUsd.toFixed(4)}</td>
                <td className="num">
                  {p.score === null ? '—' : `${p.score.toFixed(3)}${p.complete ? '' : ' (stopped early)'}`}
                </td>
                <td className="num">{p.low === null ? '—' : `${p.low.toFixed(2)}–${p.high!.toFixed(2)}`}</td>
                {first && <td className="num">{p.firstTry?.toFixed(3) ?? '—'}</td>}
                <td>{p.kind === 'baseline' ? 'start' : p.accepted ? 'yes' : 'no'}</td>
                <td className="num">{p.best.toFixed(3)}</td>
                {k && (
                  <>
                    <td className="num">{p.passK?.passAt1.toFixed(3) ?? '—'}</td>
                    <td className="num">{p.passK?.passAtK.toFixed(3) ?? '—'}</td>
                    <td className="num">{p.passK ? `${Math.round(p.passK.flipRate * 100)}%` : '—'}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
