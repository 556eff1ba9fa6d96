import { ExportSkill } from '../common/ExportSkill';
import { skillHash } from '../../core/hash';
import { LiftCard } from './LiftCard';
import { DiagnosisCard } from '../common/DiagnosisCard';
import { useEffect, useRef, useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { effectiveOptimizer, setApp, useApp } from '../../store/app-store';
import { effectivePrices } from '../../store/effective-prices';
import type { RunEndpoints } from '../../worker/api-types';
import type { RunDetail as Detail } from '../../worker/api-types';
import type { RunListItem, SkillVersion, StepRecord } from '../../worker/api-types';
import { Alert, Card } from '../common/Field';
import { downloadBlob, safeFileName } from '../common/download';
import { SkillDiff } from '../skill/LazyEditors';
import { VersionBlame } from './VersionBlame';
import { StepInspector } from './StepInspector';
import { cancelRun, resumeRun } from '../../client/run-controller';
import { originLabel } from '../../core/version-origin';

/** The hosts a run calls, as a user recognises them. */
function hostsOf(e: RunEndpoints): string[] {
  const host = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return u;
    }
  };
  return [...new Set([e.target, e.optimizer, e.judge].filter((x) => x !== undefined).map((x) => host(x.baseURL)))];
}

/**
 * The run, and the steps and versions after those the page already has: while a run is live this
 * is called after every step, and a long run's versions hold megabytes of text (issue #20 item 17).
 */
async function fetchRun(runId: string, have = { steps: 0, versions: 0 }) {
  const [run, steps, versions] = await Promise.all([
    trainer().getRun(runId),
    trainer().getSteps(runId, have.steps, 10_000),
    trainer().getSkillVersions(runId, have.versions),
  ]);
  return { run, steps: steps.steps, versions, have };
}

// Versions are told apart by origin: a text that recurs (a step that undoes another) is a version of its own.
function VersionSelect({ label, versions, value, onChange }: { label: string; versions: SkillVersion[]; value?: string; onChange: (origin: string) => void }) {
  return (
    <select aria-label={label} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
      <option value="">choose…</option>
      {versions.map((v) => (
        <option key={v.origin} value={v.origin}>
          {originLabel(v.origin)}
        </option>
      ))}
    </select>
  );
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);

/** The runs a run was branched from and into, from the runs list (Runs screen). */
interface Lineage {
  parent?: RunListItem;
  branches: RunListItem[];
}

export function RunDetail({ runId, onDeleted, go, lineage, onSelect }: { runId: string; onDeleted: () => void; go: (section: string) => void; lineage?: Lineage; onSelect?: (id: string) => void }) {
  const [detail, setDetail] = useState<Detail | null>(null);
  const [steps, setSteps] = useState<StepRecord[]>([]);
  const [versions, setVersions] = useState<SkillVersion[]>([]);
  // What the page has, for the live refresh to ask only for what is new.
  const stepsRef = useRef(steps);
  const versionsRef = useRef(versions);
  useEffect(() => {
    stepsRef.current = steps;
    versionsRef.current = versions;
  }, [steps, versions]);
  const [step, setStep] = useState<number | null>(null);
  const [compare, setCompare] = useState<[string, string] | null>(null);
  const [blameOf, setBlameOf] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const connection = useApp((s) => s.connection);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');

  const apply = (r: Awaited<ReturnType<typeof fetchRun>>) => {
    if (!r.run.ok) return setError(r.run.error.message);
    setDetail(r.run.detail);
    setName(r.run.detail.run.name);
    // Steps and versions are only ever added (a step is stored once, when it ends).
    setSteps((old) => (r.have.steps ? [...old.slice(0, r.have.steps), ...r.steps] : r.steps));
    setVersions((old) => (r.have.versions ? [...old.slice(0, r.have.versions), ...r.versions] : r.versions));
  };
  const load = () => fetchRun(runId).then(apply);
  // While this run is the live one, each finished step and status change shows here too.
  const liveMark = useApp((s) => (s.live?.runId === runId ? `${s.live.status}:${s.live.points.length}` : null));
  useEffect(() => {
    // The parent keys this component by run id, so a new run starts from fresh state.
    void fetchRun(runId, { steps: stepsRef.current.length, versions: versionsRef.current.length }).then(apply);
  }, [runId, liveMark]);

  if (error) return <Alert>{error}</Alert>;
  if (!detail) return <p className="muted">Loading the run…</p>;
  const d = detail;
  const status = d.run.status;
  const best = d.bestSkill;
  const copyBest = async () => {
    try {
      await navigator.clipboard.writeText(best);
      setMessage('The best skill was copied.');
    } catch {
      setMessage('Copying is not allowed here; use Export best skill.');
    }
  };
  const exportReport = async () => {
    const r = await trainer().exportReport(runId);
    if (r.ok) {
      downloadBlob(`${safeFileName(d.run.name)}-report.html`, r.file);
      setMessage('The report was downloaded: one HTML file that opens in any browser.');
    } else setError(r.error.message);
  };
  const exportEvals = async () => {
    const r = await trainer().exportEvals(runId);
    if (r.ok) {
      downloadBlob('evals.json', r.file);
      setMessage('The dataset was downloaded as evals.json (Agent Skills format; keep it in the skill’s evals/ folder).');
    } else setError(r.error.message);
  };
  const exportRun = async () => {
    const r = await trainer().exportRun(runId);
    if (r.ok) downloadBlob(`${safeFileName(d.run.name)}.skillwright-run.json`, r.file);
    else setError(r.error.message);
  };
  const remove = async () => {
    if (!window.confirm(`Delete “${d.run.name}” and all of its data from this browser?`)) return;
    const r = await trainer().deleteRun(runId);
    if (r.ok) onDeleted();
    else setError(r.error.message);
  };
  const fromVersion = (v: SkillVersion) => {
    setApp({ skill: v.text, skillSource: `${d.run.name}, ${v.origin}`, skillParent: { runId, hash: v.hash, label: originLabel(v.origin) } });
    go('skill');
  };
  const bind = async () => {
    const endpoints = { target: connection.target, optimizer: effectiveOptimizer(connection) };
    const r = await trainer().bindRun(runId, endpoints, effectivePrices(connection));
    if (r.ok) {
      setMessage(`This run now uses your connection (${r.hosts.join(', ')}).`);
      load();
    } else setError(r.error.message);
  };
  const tests = d.summary?.tests ?? [];
  const textOf = (origin: string) => versions.find((v) => v.origin === origin)?.text ?? '';

  return (
    <div className="run-detail">
      <Card
        title={d.run.name}
        actions={
          <>
            {(status === 'paused' || status === 'interrupted') && !d.lockedElsewhere && !d.run.needsBinding && (
              <button type="button" className="primary" title={`Resuming calls ${hostsOf(d.endpoints).join(' and ')}`} onClick={() => { go('train'); void resumeRun(runId); }}>
                Resume ({hostsOf(d.endpoints).join(', ')})
              </button>
            )}
            {(status === 'paused' || status === 'interrupted' || status === 'idle') && !d.lockedElsewhere && (
              <button type="button" className="danger" onClick={() => void cancelRun(runId).then(load)}>
                Cancel
              </button>
            )}
            <ExportSkill skill={best} runName={d.run.name} meta={d.skillMeta} onSaved={(f) => setMessage(`The best skill was downloaded as ${f}.`)} />
            <button type="button" className="ghost" onClick={() => void copyBest()}>
              Copy
            </button>
            <button type="button" onClick={() => void exportReport()}>
              Export report
            </button>
            <button type="button" onClick={() => void exportEvals()} title="The run’s dataset as evals/evals.json, with its split and lift">
              Export evals.json
            </button>
            <button type="button" onClick={() => void exportRun()}>
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
              Imported from a file: read-only. It was made against <strong>{hostsOf(d.endpoints).join(', ')}</strong>, endpoints that came with the file — your keys are never sent to
              them. To resume it, bind it to your own connection (<strong>{hostsOf({ target: connection.target, optimizer: effectiveOptimizer(connection) }).join(', ')}</strong>, from Connect).
            </p>
            <button type="button" onClick={() => void bind()}>
              Use my connection for this run
            </button>
          </div>
        )}
        {d.reason && status !== 'completed' && <p className="muted">{d.reason}</p>}
        <div className="row">
          <label className="inline">
            Name <input value={name} onChange={(e) => setName(e.target.value)} onBlur={() => void trainer().renameRun(runId, name).then(load)} aria-label="Run name" />
          </label>
        </div>
        <p>
          Status <strong>{status}</strong> · target {d.endpoints.target.model} · optimizer {d.endpoints.optimizer.model} · step {d.nextStep - 1} of {d.totalSteps} · best validation {pct(d.bestScore)} (step {d.bestStep})
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

      {d.summary?.diagnosis && <DiagnosisCard diagnosis={d.summary.diagnosis} />}

      <LiftCard tests={tests} lift={d.summary?.lift} liftOverNone={d.summary?.liftOverNone} />

      {tests.length > 0 && (
        <Card title="Test report">
          <table className="table">
            <thead>
              <tr>
                <th>Skill</th>
                <th className="num">Test accuracy</th>
                <th className="num">Partial credit</th>
                <th className="num">Items</th>
              </tr>
            </thead>
            <tbody>
              {tests.map((t) => (
                <tr key={t.skill}>
                  <td>{t.skill === 'none' ? 'No skill' : t.skill === 'initial' ? 'Initial' : t.skill === 'best' ? 'Best (exported)' : 'Final'}</td>
                  <td className="num">{pct(t.hard)}</td>
                  <td className="num">{pct(t.soft)}</td>
                  <td className="num">
                    {t.n}
                    {t.errors ? ` (+${t.errors} errored)` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {d.summary?.testDelta !== null && d.summary?.testDelta !== undefined && (
            <p>
              Best vs initial: <strong>{d.summary.testDelta >= 0 ? '+' : ''}{(d.summary.testDelta * 100).toFixed(1)} points</strong> on held-out test items.
            </p>
          )}
        </Card>
      )}

      {d.epochStats.length > 0 && (
        <Card title="Epochs">
          {d.epochStats.map((e) => (
            <details key={e.epoch}>
              <summary>
                Epoch {e.epoch}: {e.accepts} accepted, {e.rejects} rejected, {e.skips} skipped · slow update {e.slowUpdate?.action.replace(/_/g, ' ') ?? 'off'} · meta skill {e.metaSkill?.action.replace(/_/g, ' ') ?? 'off'}
              </summary>
              {e.slowUpdate?.content && (
                <>
                  <h3>Epoch guidance</h3>
                  <pre className="mono small scroll">{e.slowUpdate.content}</pre>
                </>
              )}
              {e.metaSkill?.content && (
                <>
                  <h3>Optimizer memory</h3>
                  <pre className="mono small scroll">{e.metaSkill.content}</pre>
                </>
              )}
            </details>
          ))}
        </Card>
      )}

      <Card title="Steps">
        {steps.length === 0 ? (
          <p className="muted">No steps yet.</p>
        ) : (
          <table className="table clickable">
            <thead>
              <tr>
                <th>Step</th>
                <th>Epoch</th>
                <th>Action</th>
                <th className="num">Train</th>
                <th className="num">Candidate</th>
                <th className="num">Current</th>
                <th className="num">Edits</th>
              </tr>
            </thead>
            <tbody>
              {steps.map((s) => (
                <tr key={s.step} className={step === s.step ? 'selected' : undefined}>
                  <td>
                    <button type="button" className="link" onClick={() => setStep(s.step)} aria-label={`Inspect step ${s.step}`}>
                      {s.step}
                    </button>
                  </td>
                  <td>{s.epoch}</td>
                  <td>
                    <span className={`badge ${s.action.includes('accept') ? 'pass' : s.action === 'reject' ? 'fail' : ''}`}>{s.action.replace(/_/g, ' ')}</span>
                  </td>
                  <td className="num">{pct(s.rolloutHard)}</td>
                  <td className="num">{s.candidateGateScore === null ? '—' : s.candidateGateScore.toFixed(3)}</td>
                  <td className="num">{s.currentScore.toFixed(3)}</td>
                  <td className="num">{s.nEditsRanked}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      {step !== null && (
        <StepInspector
          runId={runId}
          step={step}
          onBranch={(text, label) => {
            // A branch continues with the run's dataset and settings, from a skill of the chosen step.
            void skillHash(text).then((hash) => {
              setApp({ skill: text, skillSource: `${d.run.name}, ${label}`, skillMeta: d.skillMeta ?? null, config: d.config, datasetId: d.run.datasetId, skillParent: { runId, hash, label } });
              go('skill');
            });
          }}
        />
      )}

      <Card title="Skill versions">
        <table className="table">
          <thead>
            <tr>
              <th>Version</th>
              <th>Step</th>
              <th className="num">Length</th>
              <th>Compare</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {versions.map((v, i) => (
              <tr key={v.origin}>
                <td>
                  {originLabel(v.origin)} {v.text === best && <span className="badge accept">best</span>}
                </td>
                <td>{v.step}</td>
                <td className="num">{v.text.length}</td>
                <td>
                  {i > 0 && (
                    <button type="button" className="link" onClick={() => setCompare([versions[i - 1].origin, v.origin])}>
                      vs previous
                    </button>
                  )}{' '}
                  {i > 0 && (
                    <button type="button" className="link" onClick={() => setCompare([versions[0].origin, v.origin])}>
                      vs initial
                    </button>
                  )}
                </td>
                <td>
                  <button type="button" className="link" onClick={() => setBlameOf(blameOf === v.origin ? null : v.origin)}>
                    Where lines came from
                  </button>{' '}
                  <button type="button" className="link" onClick={() => fromVersion(v)}>
                    New run from this version
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {versions.length > 1 && (
          <div className="row">
            <label className="inline">
              Compare
              <VersionSelect label="First version" versions={versions} value={compare?.[0]} onChange={(h) => setCompare([h, compare?.[1] ?? versions[versions.length - 1].origin])} />
              with
              <VersionSelect label="Second version" versions={versions} value={compare?.[1]} onChange={(h) => setCompare([compare?.[0] ?? versions[0].origin, h])} />
            </label>
          </div>
        )}
        {compare && <SkillDiff original={textOf(compare[0])} modified={textOf(compare[1])} />}
        {blameOf && versions.some((v) => v.origin === blameOf) && <VersionBlame key={blameOf} runId={runId} version={versions.find((v) => v.origin === blameOf)!} />}
      </Card>
    </div>
  );
}
