import { useApp, type LiveRun } from '../../store/app-store';
import { ScoreChart } from './ScoreChart';
import { NoiseNote } from './NoiseNote';
import { PIPELINE_LABELS, STEP_STAGES, type PipelineStage } from '../../core/config/stages';
import { LearningCurve } from '../common/LearningCurve';

/** Stages outside the six of a step are named in a line under the strip. */
const outsideStep = (stage: PipelineStage | undefined) =>
  stage && !STEP_STAGES.includes(stage) ? PIPELINE_LABELS[stage] : null;

function eta(live: LiveRun): string {
  const done = live.points.length;
  if (!done || !live.firstPointAt || live.status !== 'running') return '';
  const perStep = (Date.now() - live.startedAt) / done;
  const left = Math.max(0, live.totalSteps - done) * perStep;
  return left < 60_000 ? `about ${Math.ceil(left / 1000)} s left` : `about ${Math.ceil(left / 60_000)} min left`;
}

export function RunDashboard() {
  const live = useApp((s) => s.live);
  if (!live) return null;
  const stepsDone = live.points.length;
  const pct = live.totalSteps ? Math.round((stepsDone / live.totalSteps) * 100) : 0;
  const tokens = Object.values(live.usage).reduce((a, u) => a + u.promptTokens + u.completionTokens, 0);
  const calls = Object.values(live.usage).reduce((a, u) => a + u.calls, 0);
  const last = live.points[live.points.length - 1];
  // An epoch boundary's slow update can raise the best without a step: the curve's last mark knows it.
  const lastMark = live.curve.at(-1);
  const best = Math.max(last?.best ?? -1, lastMark && lastMark.kind !== 'baseline' ? lastMark.best : -1);
  return (
    <section className="card dashboard" aria-label="Training progress">
      <ol className="pipeline" aria-label="Stages">
        {STEP_STAGES.map((id, i) => (
          <li
            key={id}
            className={live.stage === id && live.status === 'running' ? 'active' : undefined}
            aria-current={live.stage === id ? 'step' : undefined}
          >
            <span className="num">{i + 1}</span> {PIPELINE_LABELS[id]}
          </li>
        ))}
      </ol>
      {outsideStep(live.stage) && live.status === 'running' && <p className="muted">{outsideStep(live.stage)}</p>}
      <div className="progress-row">
        <div
          className="progress"
          role="progressbar"
          aria-label="Steps done"
          aria-valuemin={0}
          aria-valuemax={live.totalSteps}
          aria-valuenow={stepsDone}
        >
          <div style={{ width: `${pct}%` }} />
        </div>
        <span>
          Step {stepsDone} of {live.totalSteps} · epoch {Math.max(1, live.epoch)} {eta(live) && `· ${eta(live)}`}
        </span>
      </div>
      {live.progress && live.status === 'running' && (
        <p className="muted">
          {live.progress.phase}: {live.progress.done} / {live.progress.total} items
        </p>
      )}
      <div className="stats">
        <div>
          <span className="stat">{last ? last.current.toFixed(3) : '—'}</span> current
        </div>
        <div>
          <span className="stat">{best >= 0 ? best.toFixed(3) : '—'}</span> best
        </div>
        <div>
          <span className="stat">{calls.toLocaleString()}</span> calls
        </div>
        <div>
          <span className="stat">{tokens.toLocaleString()}</span> tokens
        </div>
        <div>
          <span className="stat">${live.costUsd.toFixed(4)}</span> spent
        </div>
      </div>
      <NoiseNote noise={live.noise} />
      <ScoreChart points={live.points} totalSteps={live.totalSteps} baseline={live.baseline} />
      <LearningCurve marks={live.curve} />
      <details className="timeline" open>
        <summary>Steps and log</summary>
        <ol className="steps">
          {live.points.map((p, i) => (
            <li
              key={p.step}
              className={p.action.includes('accept') ? 'accepted' : p.action === 'reject' ? 'rejected' : 'skipped'}
            >
              Step {p.step} (epoch {p.epoch}): {p.action.replace(/_/g, ' ')}
              {/* The score the candidate faced (stored with the step; older runs: the previous point's, or the baseline). */}
              {p.candidate !== null &&
                ` — candidate ${p.candidate.toFixed(3)} vs ${(p.faced ?? (i ? live.points[i - 1].current : (live.baseline ?? p.current))).toFixed(3)}`}
            </li>
          ))}
        </ol>
        <pre className="log" aria-label="Log">
          {live.log
            .slice(-60)
            .map(
              (l) =>
                `${new Date(l.at).toLocaleTimeString()} ${l.level === 'info' ? '' : `${l.level.toUpperCase()} `}${l.message}`,
            )
            .join('\n')}
        </pre>
      </details>
    </section>
  );
}
