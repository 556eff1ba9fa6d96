/**
 * A run's header card: what it is and where it stands, the actions on it (resume, cancel, export
 * the best skill, the report, the evals and the run, delete), binding an imported run to the
 * user's own connection, renaming, and the runs it was branched from and into.
 */
import { useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { cancelRun, resumeRun } from '../../client/run-controller';
import { effectiveOptimizer, useApp } from '../../store/app-store';
import { effectivePrices } from '../../store/effective-prices';
import type { RunDetail, RunListItem } from '../../worker/api-types';
import { ExportSkill } from '../common/ExportSkill';
import { trainedDescription } from '../../core/dataset/trigger-queries';
import { Card } from '../common/Field';
import { downloadBlob, safeFileName } from '../common/download';
import { hostsOf, pct } from './run-format';

/** The runs a run was branched from and into, from the runs list (Runs screen). */
export interface Lineage {
  parent?: RunListItem;
  branches: RunListItem[];
}

export function RunHeader({
  runId,
  detail: d,
  lineage,
  message,
  onMessage,
  onError,
  onChanged,
  onDeleted,
  onSelect,
  go,
}: {
  runId: string;
  detail: RunDetail;
  lineage?: Lineage;
  message: string | null;
  onMessage: (text: string) => void;
  onError: (text: string) => void;
  /** Read the run again (after a rename, a cancel or a binding). */
  onChanged: () => void;
  onDeleted: () => void;
  onSelect?: (id: string) => void;
  go: (section: string) => void;
}) {
  const connection = useApp((s) => s.connection);
  const [name, setName] = useState(d.run.name);
  const status = d.run.status;
  const best = d.bestSkill;
  const hosts = hostsOf(d.endpoints);
  const copyBest = async () => {
    try {
      await navigator.clipboard.writeText(best);
      onMessage('The best skill was copied.');
    } catch {
      onMessage('Copying is not allowed here; use Export best skill.');
    }
  };
  // Each export is one file the browser downloads.
  const download = async (
    make: () => Promise<{ ok: true; file: Blob } | { ok: false; error: { message: string } }>,
    fileName: string,
    said?: string,
  ) => {
    const r = await make();
    if (!r.ok) return onError(r.error.message);
    downloadBlob(fileName, r.file);
    if (said) onMessage(said);
  };
  const remove = async () => {
    if (!window.confirm(`Delete “${d.run.name}” and all of its data from this browser?`)) return;
    const r = await trainer().deleteRun(runId);
    if (r.ok) onDeleted();
    else onError(r.error.message);
  };
  const bind = async () => {
    const endpoints = { target: connection.target, optimizer: effectiveOptimizer(connection) };
    const r = await trainer().bindRun(runId, endpoints, effectivePrices(connection));
    if (r.ok) {
      onMessage(`This run now uses your connection (${r.hosts.join(', ')}).`);
      onChanged();
    } else onError(r.error.message);
  };
  const stopped = status === 'paused' || status === 'interrupted';
  return (
    <Card
      title={d.run.name}
      actions={
        <>
          {stopped && !d.lockedElsewhere && !d.run.needsBinding && (
            <button
              type="button"
              className="primary"
              title={`Resuming calls ${hosts.join(' and ')}`}
              onClick={() => {
                go('train');
                void resumeRun(runId);
              }}
            >
              Resume ({hosts.join(', ')})
            </button>
          )}
          {(stopped || status === 'idle') && !d.lockedElsewhere && (
            <button type="button" className="danger" onClick={() => void cancelRun(runId).then(onChanged)}>
              Cancel
            </button>
          )}
          <ExportSkill
            skill={best}
            runName={d.run.name}
            runId={runId}
            meta={d.skillMeta}
            trainedDescription={trainedDescription(d.activation)}
            onSaved={(f) => onMessage(`The best skill was downloaded as ${f}.`)}
          />
          <button type="button" className="ghost" onClick={() => void copyBest()}>
            Copy
          </button>
          <button
            type="button"
            onClick={() =>
              void download(
                () => trainer().exportReport(runId),
                `${safeFileName(d.run.name)}-report.html`,
                'The report was downloaded: one HTML file that opens in any browser.',
              )
            }
          >
            Export report
          </button>
          <button
            type="button"
            title="The run’s dataset as evals/evals.json, with its split and lift"
            onClick={() =>
              void download(
                () => trainer().exportEvals(runId),
                'evals.json',
                'The dataset was downloaded as evals.json (Agent Skills format; keep it in the skill’s evals/ folder).',
              )
            }
          >
            Export evals.json
          </button>
          <button
            type="button"
            onClick={() =>
              void download(() => trainer().exportRun(runId), `${safeFileName(d.run.name)}.skillwright-run.json`)
            }
          >
            Export run
          </button>
          <button type="button" className="ghost danger" onClick={() => void remove()} disabled={d.lockedElsewhere}>
            Delete
          </button>
        </>
      }
    >
      {d.lockedElsewhere && <p className="warn">Another tab is running this run; it is read-only here.</p>}
      {d.run.needsBinding && (
        <div className="warn" role="note">
          <p>
            Imported from a file: read-only. It was made against <strong>{hosts.join(', ')}</strong>, endpoints that
            came with the file — your keys are never sent to them. To resume it, bind it to your own connection (
            <strong>
              {hostsOf({ target: connection.target, optimizer: effectiveOptimizer(connection) }).join(', ')}
            </strong>
            , from Connect).
          </p>
          <button type="button" onClick={() => void bind()}>
            Use my connection for this run
          </button>
        </div>
      )}
      {d.reason && status !== 'completed' && <p className="muted">{d.reason}</p>}
      <div className="row">
        <label className="inline">
          Name{' '}
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => void trainer().renameRun(runId, name).then(onChanged)}
            aria-label="Run name"
          />
        </label>
      </div>
      <p>
        Status <strong>{status}</strong> · target {d.endpoints.target.model} · optimizer {d.endpoints.optimizer.model} ·
        step {d.nextStep - 1} of {d.totalSteps} · best validation {pct(d.bestScore)} (step {d.bestStep})
        {d.summary && ` · $${d.summary.totalCostUsd.toFixed(4)}`}
      </p>
      {(d.run.parent || (lineage?.branches.length ?? 0) > 0) && (
        <p className="lineage">
          {d.run.parent && (
            <>
              Branched from{' '}
              {lineage?.parent ? (
                <button type="button" className="link" onClick={() => onSelect?.(lineage.parent!.id)}>
                  {lineage.parent.name}
                </button>
              ) : (
                'a run no longer in this browser'
              )}
              {d.run.parent.label && ` (${d.run.parent.label})`}.{' '}
            </>
          )}
          {lineage && lineage.branches.length > 0 && (
            <>
              Branches:{' '}
              {lineage.branches.map((b, i) => (
                <span key={b.id}>
                  {i > 0 && ', '}
                  <button type="button" className="link" onClick={() => onSelect?.(b.id)}>
                    {b.name}
                  </button>
                  {b.parent?.label && ` (from ${b.parent.label})`}
                </span>
              ))}
              .
            </>
          )}
        </p>
      )}
      {message && <p className="ok-line">{message}</p>}
    </Card>
  );
}
