import { useApp } from '../store/app-store';

const WORD: Record<string, string> = {
  idle: 'Idle',
  running: 'Running',
  paused: 'Paused',
  interrupted: 'Interrupted',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The run's state, always visible once a run exists (role=status, DESIGN §9). */
export function StatusStrip() {
  const live = useApp((s) => s.live);
  const status = live?.status ?? 'idle';
  const last = live?.points[live.points.length - 1];
  return (
    <div className="run-status" role="status" aria-live="polite">
      <span className={`dot dot-${status}`} aria-hidden="true" />
      <strong>{WORD[status]}</strong>
      {live && (
        <span className="muted">
          {' '}
          · step {live.points.length}/{live.totalSteps}
          {last && ` · best ${last.best.toFixed(3)}`}
          {live.costUsd > 0 && ` · $${live.costUsd.toFixed(3)}`}
        </span>
      )}
      {!live && <span className="muted"> · no run yet</span>}
    </div>
  );
}
