/**
 * The actions on a run, in its header card: resume, cancel, export the best skill (or copy it),
 * the report, the evals and the run, and delete.
 */
import { trainer } from '../../client/trainer-client';
import { cancelRun, resumeRun } from '../../client/run-controller';
import type { RunDetail } from '../../worker/api-types';
import { ExportSkill } from '../common/ExportSkill';
import { trainedDescription } from '../../core/dataset/trigger-queries';
import { downloadBlob, safeFileName } from '../common/download';
import { hostsOf } from './run-format';

export function RunActions({
  runId,
  detail: d,
  onMessage,
  onError,
  onChanged,
  onDeleted,
  go,
}: {
  runId: string;
  detail: RunDetail;
  onMessage: (text: string) => void;
  onError: (text: string) => void;
  onChanged: () => void;
  onDeleted: () => void;
  go: (section: string) => void;
}) {
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
  const stopped = status === 'paused' || status === 'interrupted';
  return (
    <>
      {stopped && !d.lockedElsewhere && !d.run.needsBinding && !d.module?.fromFile && (
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
  );
}
