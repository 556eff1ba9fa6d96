import { useState } from 'react';
import { useApp } from '../../store/app-store';
import type { ConfigProblem } from '../../core/config/run-config';
import { cancelRun, pauseRun, resumeRun, startTraining } from '../../client/run-controller';
import { NumberField } from '../common/Field';
import { KNOBS } from '../../core/config/knobs';
import { showKnob } from './show-knob';
import { useStickyRoom } from './sticky-room';

/** A problem's setting as the form labels it, when it is one knob in the page. */
const knobLabel = (field: string) => KNOBS.find((k) => k.key === field)?.label;

/**
 * The screen's primary actions, stuck to the bottom of the viewport while the settings scroll
 * (issue #33): start, pause, resume (with a new cap after a budget pause) and cancel, and what
 * stops a start. Buttons follow the status the worker reported; while a start is on its way none
 * is offered twice.
 */
export function TrainActions({ ready, problems }: { ready: boolean; problems: readonly ConfigProblem[] }) {
  const status = useApp((s) => s.live?.status);
  const runId = useApp((s) => s.live?.runId);
  const starting = useApp((s) => s.live?.starting === true);
  const reasonKind = useApp((s) => s.live?.reasonKind);
  const [resumeBudget, setResumeBudget] = useState<number | undefined>(undefined);
  const room = useStickyRoom();
  const running = status === 'running';
  const resumable = Boolean(runId) && !starting && (status === 'paused' || status === 'interrupted');
  return (
    <div className="actions-bar sticky-actions" ref={room}>
      {!running && (
        <button
          type="button"
          className="primary"
          onClick={() => void startTraining()}
          disabled={!ready || problems.length > 0 || starting}
        >
          {starting ? 'Starting…' : 'Start training'}
        </button>
      )}
      {running && (
        <button type="button" onClick={() => void pauseRun()}>
          Pause
        </button>
      )}
      {/* A run waiting for a review continues from the review panel, with a decision. */}
      {resumable && reasonKind !== 'review' && (
        <>
          <button
            type="button"
            className="primary"
            onClick={() => void resumeRun(runId!, resumeBudget !== undefined ? { budgetUsd: resumeBudget } : undefined)}
          >
            Resume
          </button>
          {reasonKind === 'budget' && (
            <NumberField
              label="New budget cap (USD)"
              value={resumeBudget}
              min={0}
              step={0.5}
              onChange={setResumeBudget}
            />
          )}
        </>
      )}
      {(running || resumable) && (
        <button type="button" className="danger" onClick={() => void cancelRun()}>
          Cancel
        </button>
      )}
      {!ready && <span className="muted">Choose a dataset first (Data).</span>}
      {problems.length > 0 && (
        <div role="alert" className="alert inline-alert">
          {problems.length === 1 ? 'Fix this setting to start: ' : `Fix these ${problems.length} settings to start: `}
          {problems.map((p, i) => {
            const label = knobLabel(p.field);
            return (
              <span key={`${p.field}-${i}`}>
                {i > 0 && '; '}
                {p.message}
                {label && (
                  <>
                    {' '}
                    <button type="button" className="link" onClick={() => showKnob(p.field)}>
                      (show {label})
                    </button>
                  </>
                )}
              </span>
            );
          })}
          .
        </div>
      )}
    </div>
  );
}
