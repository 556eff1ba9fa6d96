import { useEffect, useRef, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { useApp } from '../../store/app-store';
import type { RunListItem } from '../../worker/api-types';
import { Alert, Card } from '../common/Field';
import { ErrorBoundary } from '../common/ErrorBoundary';
import { RunDetail } from './RunDetail';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export function RunsScreen({ go }: { go: (section: string) => void }) {
  const [runs, setRuns] = useState<RunListItem[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const liveStatus = useApp((s) => s.live?.status);

  const refresh = async () => {
    const list = await trainer().listRuns();
    setRuns(list);
    setSelected((cur) => cur ?? list[0]?.id ?? null);
  };
  useEffect(() => {
    void trainer()
      .listRuns()
      .then((list) => {
        setRuns(list);
        setSelected((cur) => cur ?? list[0]?.id ?? null);
      });
  }, [liveStatus]);

  const deleted = () => {
    setSelected(null);
    void refresh();
  };
  const remove = async (runId: string) => {
    const name = runs.find((r) => r.id === runId)?.name ?? runId;
    if (!window.confirm(`Delete “${name}” and all of its data from this browser?`)) return;
    const r = await trainer().deleteRun(runId);
    if (r.ok) deleted();
    else setProblem(r.error.message);
  };

  const importRun = async (f: File) => {
    setProblem(null);
    const r = await trainer().importRun(f);
    if (!r.ok) return setProblem(`${f.name} was not imported: ${r.error.message} Nothing was stored.`);
    setNotice(r.renamed ? 'Imported as a copy (a run with the same id already exists).' : 'Run imported.');
    setSelected(r.runId);
    await refresh();
  };

  return (
    <div className="screen">
      <h1>Runs and skill versions</h1>
      {problem && <Alert>{problem}</Alert>}
      {notice && <p className="ok-line">{notice}</p>}
      <Card
        title="Runs in this browser"
        actions={
          <>
            <button type="button" onClick={() => fileRef.current?.click()}>
              Import run
            </button>
            <input
              ref={fileRef}
              type="file"
              hidden
              aria-label="Import run file"
              accept=".json,application/json"
              onChange={(e) => e.target.files?.[0] && void importRun(e.target.files[0])}
            />
          </>
        }
      >
        {runs.length === 0 ? (
          <p className="muted">No runs yet. Set up training on Train, or import a run.</p>
        ) : (
          <table className="table clickable">
            <thead>
              <tr>
                <th>Run</th>
                <th>Status</th>
                <th className="num">Best validation</th>
                <th className="num">Steps</th>
                <th className="num">Cost</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id} className={r.id === selected ? 'selected' : undefined}>
                  <td>
                    <button type="button" className="link" onClick={() => setSelected(r.id)}>
                      {r.name}
                    </button>
                  </td>
                  <td>
                    <span className={`badge status-${r.status}`}>{r.status}</span>
                  </td>
                  <td className="num">{pct(r.bestScore)}</td>
                  <td className="num">{r.stepsDone}</td>
                  <td className="num">{r.totalCostUsd === null ? '—' : `$${r.totalCostUsd.toFixed(4)}`}</td>
                  <td>{new Date(r.updatedAt).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {selected && runs.some((r) => r.id === selected) && (
        // A run whose stored figures cannot be shown (a crafted bundle's) can still be deleted here.
        <ErrorBoundary
          key={selected}
          what="This run"
          hint="Its stored records hold something this page cannot draw (a file it was imported from, perhaps)."
          actions={
            <button type="button" className="danger" onClick={() => void remove(selected)}>
              Delete this run
            </button>
          }
        >
          <RunDetail
            runId={selected}
            go={go}
            lineage={{
              parent: runs.find((r) => r.id === runs.find((x) => x.id === selected)?.parent?.runId),
              branches: runs.filter((r) => r.parent?.runId === selected),
            }}
            onSelect={setSelected}
            onDeleted={deleted}
          />
        </ErrorBoundary>
      )}
    </div>
  );
}
