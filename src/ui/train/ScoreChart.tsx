import type { ChartPoint } from '../../store/app-store';

/**
 * The live training chart, in plain SVG: current and best validation score, each candidate's
 * score with an accept (●) or reject (×) marker, train-batch accuracy, and the edit budget as
 * bars along the bottom.
 */
export function ScoreChart({
  points,
  baseline,
  totalSteps,
}: {
  points: ChartPoint[];
  baseline?: number;
  totalSteps: number;
}) {
  const W = 640;
  const H = 240;
  const pad = { l: 36, r: 12, t: 12, b: 28 };
  const n = Math.max(totalSteps, points.length, 1);
  const x = (step: number) =>
    pad.l +
    ((step - (baseline !== undefined ? 0 : 1)) / Math.max(1, n - (baseline !== undefined ? 0 : 1))) *
      (W - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - Math.min(1, Math.max(0, v))) * (H - pad.t - pad.b);
  const series = (get: (p: ChartPoint) => number | null, withBaseline: boolean) => {
    const pts = points.map((p) => [p.step, get(p)] as const).filter(([, v]) => v !== null) as [number, number][];
    if (withBaseline && baseline !== undefined) pts.unshift([0, baseline]);
    return pts.map(([s, v], i) => `${i ? 'L' : 'M'}${x(s).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  };
  const maxBudget = Math.max(1, ...points.map((p) => p.editBudget ?? 0));
  const last = points[points.length - 1];
  const label = last
    ? `Step ${last.step}: current ${last.current.toFixed(3)}, best ${last.best.toFixed(3)}, ${points.filter((p) => p.action.includes('accept')).length} accepted, ${points.filter((p) => p.action === 'reject').length} rejected.`
    : 'No steps yet.';
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Validation score chart. ${label}`}>
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} className="grid" />
            <text x={pad.l - 6} y={y(v) + 4} className="axis" textAnchor="end">
              {v.toFixed(2)}
            </text>
          </g>
        ))}
        {points.map((p) =>
          p.editBudget ? (
            <rect
              key={`b${p.step}`}
              x={x(p.step) - 3}
              y={H - pad.b - (p.editBudget / maxBudget) * 18}
              width={6}
              height={(p.editBudget / maxBudget) * 18}
              className="budget"
            />
          ) : null,
        )}
        <path d={series((p) => p.trainHard, false)} className="line-train" />
        <path d={series((p) => p.best, true)} className="line-best" />
        <path d={series((p) => p.current, true)} className="line-current" />
        {points.map((p) =>
          p.candidate === null ? null : p.action.includes('accept') ? (
            <circle key={`c${p.step}`} cx={x(p.step)} cy={y(p.candidate)} r={4} className="mark-accept">
              <title>{`Step ${p.step}: accepted at ${p.candidate.toFixed(3)}`}</title>
            </circle>
          ) : (
            <g key={`c${p.step}`} className="mark-reject" transform={`translate(${x(p.step)},${y(p.candidate)})`}>
              <title>{`Step ${p.step}: rejected at ${p.candidate.toFixed(3)}${p.action === 'reject' ? '' : ` (${p.action})`}`}</title>
              <path d="M-4,-4L4,4M-4,4L4,-4" />
            </g>
          ),
        )}
        {Array.from({ length: n + 1 }, (_, i) => i)
          .filter((s) => (s === 0 ? baseline !== undefined : n <= 12 || s % Math.ceil(n / 12) === 0))
          .map((s) => (
            <text key={`x${s}`} x={x(s)} y={H - 8} className="axis" textAnchor="middle">
              {s}
            </text>
          ))}
      </svg>
      <figcaption className="legend">
        <span className="key key-current">current</span>
        <span className="key key-best">best</span>
        <span className="key key-train">train batch</span>
        <span className="key key-accept">accepted</span>
        <span className="key key-reject">rejected</span>
        <span className="key key-budget">edit budget</span>
      </figcaption>
    </figure>
  );
}
