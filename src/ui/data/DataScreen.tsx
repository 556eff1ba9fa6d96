import { useEffect, useRef, useState, type DragEvent } from 'react';
import { trainer } from '../../client/trainer-client';
import { setApp, useApp } from '../../store/app-store';
import { formatProblem, type DatasetItem, type FieldMapping, type MappingRole } from '../../core/dataset-types';
import { SCORER_KINDS, type ScorerSpec } from '../../core/scoring';
import { ROLLOUT_PRESETS } from '../../core/templates';
import { DEFAULT_RUN_CONFIG, scaledDefaults } from '../../core/run-config';
import type { DatasetCheck, DatasetInspection } from '../../worker/api-types';
import type { DatasetListItem } from '../../worker/api-types';
import { Alert, Card, Field, NumberField } from '../common/Field';
import { VirtualTable } from '../common/VirtualTable';
import { SelectField } from '../common/SelectField';
import { PACKAGE_EVALS } from '../../core/skill-package';
import { listExamples, loadExample, type ExampleInfo } from './examples';

const ROLES: { role: MappingRole; label: string }[] = [
  { role: 'question', label: 'Question' },
  { role: 'expected', label: 'Expected answer' },
  { role: 'id', label: 'Id' },
  { role: 'context', label: 'Context' },
  { role: 'choices', label: 'Choices' },
  { role: 'correctChoice', label: 'Correct choice' },
  { role: 'split', label: 'Split' },
  { role: 'taskType', label: 'Task type' },
];

const SHARE_LABELS = ['Train share', 'Validation share', 'Test share'] as const;

const SCORER_HELP: Record<string, string> = {
  exact: 'Exact match after normalising case, punctuation and articles; partial credit by token F1.',
  mcq: 'The chosen option’s letter must equal the correct one.',
  contains: 'Passes when an expected answer appears anywhere in the response.',
  numeric: 'The first number in the answer must match within a tolerance.',
  regex: 'Expected answers are regular expressions the answer must match.',
  anls: 'Edit-distance similarity (DocVQA ANLS); passes at 1.',
  judge: 'The optimizer model grades each answer against the expected one.',
};

/** Select a dataset; the batch-size knobs follow its size (the paper's defaults assume hundreds of items). */
function chooseDataset(d: DatasetListItem) {
  setApp((s) => ({
    datasetId: d.id,
    datasetName: d.name,
    config: {
      ...s.config,
      batchSize: DEFAULT_RUN_CONFIG.batchSize,
      minibatchSize: DEFAULT_RUN_CONFIG.minibatchSize,
      slowUpdateSamples: DEFAULT_RUN_CONFIG.slowUpdateSamples,
      ...scaledDefaults(d.counts.train),
    },
  }));
}

interface Loaded {
  name: string;
  /** The file as staged in the worker (parsed there once); null when it could not be parsed. */
  draftId: string | null;
  inspection: DatasetInspection | null;
  problems: string[];
  truncated: boolean;
}

/** How long choices must stay unchanged before the worker checks them (one check per pause in typing). */
const RECHECK_DELAY_MS = 200;

function loadedFrom(name: string, draftId: string | null, res: DatasetCheck): Loaded {
  if (res.ok) return { name, draftId, inspection: res, problems: [], truncated: false };
  const problems = 'problems' in res && res.problems ? res.problems : (res.error.problems ?? []);
  return {
    name,
    draftId,
    inspection: 'fieldNames' in res ? (res as DatasetInspection) : null,
    problems: problems.map(formatProblem),
    truncated: Boolean(res.error.truncated),
  };
}

export function DataScreen() {
  const datasetId = useApp((s) => s.datasetId);
  const skillPackage = useApp((s) => s.skillPackage);
  const packageEvals = skillPackage?.assets.find((a) => a.path === PACKAGE_EVALS);
  const config = useApp((s) => s.config);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [mapping, setMapping] = useState<Partial<Record<MappingRole, string>>>({});
  const [ratio, setRatio] = useState<[number, number, number]>([2, 1, 7]);
  const [seed, setSeed] = useState(42);
  const [examples, setExamples] = useState<ExampleInfo[]>([]);
  const [exampleId, setExampleId] = useState('elements');
  const [saved, setSaved] = useState<DatasetListItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [drag, setDrag] = useState(false);
  // Only the answer to the latest request is shown; a pending re-check is dropped by a newer one.
  const latest = useRef(0);
  const recheckTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    void listExamples().then(setExamples);
    void trainer().listDatasets().then(setSaved);
    return () => clearTimeout(recheckTimer.current);
  }, []);

  /** Hand a file to the worker once; it is parsed there and checked under the current shares. */
  const stage = async (name: string, file: Blob, r = ratio) => {
    clearTimeout(recheckTimer.current);
    const n = ++latest.current;
    if (loaded?.draftId) void trainer().discardStaged(loaded.draftId);
    setMapping({});
    setBusy(true);
    try {
      const res = await trainer().stageDataset(file, { fileName: name, ratio: r, splitSeed: seed });
      if (n === latest.current) setLoaded(loadedFrom(name, res.draftId ?? null, res));
    } finally {
      setBusy(false);
    }
  };

  /** The staged file under new choices, checked once the user pauses (nothing is sent again but the choices). */
  const recheck = (choices: { mapping?: typeof mapping; ratio?: [number, number, number]; splitSeed?: number }) => {
    const draft = loaded;
    if (!draft?.draftId) return;
    clearTimeout(recheckTimer.current);
    const n = ++latest.current;
    recheckTimer.current = setTimeout(async () => {
      const res = await trainer().inspectStaged(draft.draftId!, { mapping, ratio, splitSeed: seed, ...choices });
      if (n === latest.current) setLoaded(loadedFrom(draft.name, draft.draftId, res));
    }, RECHECK_DELAY_MS);
  };

  const openFile = (file: File) => stage(file.name, file);
  // Package assets are kept as binary strings (one char per byte).
  const usePackageEvals = () =>
    packageEvals &&
    stage(
      `${skillPackage!.name}/${PACKAGE_EVALS}`,
      new Blob([Uint8Array.from(packageEvals.data, (c) => c.charCodeAt(0))]),
    );

  const useExample = async () => {
    const e = examples.find((x) => x.id === exampleId);
    if (!e) return;
    const { data, skill } = await loadExample(e);
    const r = e.ratio ?? ratio;
    setRatio(r);
    setApp((s) => ({
      skill,
      skillSource: `${e.name} (starter skill)`,
      skillParent: null,
      config: { ...s.config, scorer: { kind: e.scorer }, rollout: { ...s.config.rollout, preset: e.preset } },
    }));
    await stage(e.file, new Blob([data]), r);
  };

  // Stores the file under the choices on screen, even if their check has not come back yet.
  const save = async () => {
    if (!loaded?.draftId) return;
    clearTimeout(recheckTimer.current);
    latest.current++;
    setBusy(true);
    try {
      const r = await trainer().commitStaged(loaded.draftId, { name: loaded.name, mapping, ratio, splitSeed: seed });
      if (r.ok) {
        chooseDataset(r.dataset);
        setSaved(await trainer().listDatasets());
        setLoaded(null);
      } else
        setLoaded({
          ...loaded,
          problems: r.error.problems?.map(formatProblem) ?? [r.error.message],
          truncated: Boolean(r.error.truncated),
        });
    } finally {
      setBusy(false);
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDrag(false);
    const f = e.dataTransfer.files[0];
    if (f) void openFile(f);
  };

  const ins = loaded?.inspection;
  const fields = ins?.fieldNames ?? [];
  const current = saved.find((d) => d.id === datasetId);
  const setScorer = (kind: ScorerSpec['kind']) =>
    setApp((s) => ({ config: { ...s.config, scorer: { kind } as ScorerSpec } }));

  return (
    <div className="screen">
      <h1>Load a dataset</h1>
      <p className="lead">
        Tasks with expected answers: JSON (a list, or {'{train, val, test}'}), JSONL or CSV. The train split teaches,
        the validation split gates every edit, the test split reports at the end.
      </p>
      <Card title="Source">
        <div
          className={drag ? 'dropzone drag' : 'dropzone'}
          onDragOver={(e) => {
            e.preventDefault();
            setDrag(true);
          }}
          onDragLeave={() => setDrag(false)}
          onDrop={onDrop}
        >
          <label className="file-label">
            <span>Upload dataset</span>
            <input
              type="file"
              aria-label="Upload dataset"
              accept=".json,.jsonl,.ndjson,.csv,application/json,text/csv"
              onChange={(e) => e.target.files?.[0] && void openFile(e.target.files[0])}
            />
          </label>
          <span className="muted">or drop a file here</span>
        </div>
        <div className="row">
          <SelectField
            label="Example"
            value={exampleId}
            options={examples.map((x) => ({ value: x.id, label: x.name }))}
            onChange={setExampleId}
          />
          <button type="button" onClick={useExample} disabled={!examples.length || busy}>
            Load example
          </button>
        </div>
        <p className="muted">{examples.find((x) => x.id === exampleId)?.description}</p>
        {packageEvals && (
          <div className="row">
            <button type="button" onClick={usePackageEvals} disabled={busy}>
              Use the package’s evals/evals.json
            </button>
            <span className="muted">
              the eval cases inside <code>{skillPackage!.name}</code>, the skill package open on the Skill screen
            </span>
          </div>
        )}
      </Card>

      {loaded && loaded.problems.length > 0 && (
        <Alert>
          <strong>
            {loaded.name} was not loaded: {loaded.problems.length}
            {loaded.truncated ? '+' : ''} problem{loaded.problems.length === 1 ? '' : 's'}. Nothing was stored.
          </strong>
          <ul className="problems">
            {loaded.problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
          {loaded.truncated && <p>Only the first 100 problems are listed.</p>}
        </Alert>
      )}

      {loaded && (fields.length > 0 || ins?.counts) && (
        <Card
          title={`Preview — ${loaded.name}`}
          actions={
            ins?.counts && (
              <button className="primary" onClick={save} disabled={busy}>
                Use this dataset
              </button>
            )
          }
        >
          {fields.length > 0 && (
            <div className="grid-4">
              {ROLES.map(({ role, label }) => (
                <Field key={role} label={`${label} field`}>
                  {(id) => (
                    <select
                      id={id}
                      value={mapping[role] ?? (ins?.mapping as FieldMapping | undefined)?.[role] ?? ''}
                      onChange={(e) => {
                        const m = { ...mapping, [role]: e.target.value };
                        setMapping(m);
                        recheck({ mapping: m });
                      }}
                    >
                      <option value="">(none)</option>
                      {fields.map((f) => (
                        <option key={f} value={f}>
                          {f}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              ))}
            </div>
          )}
          {ins?.counts && (
            <>
              <div className="grid-4">
                {SHARE_LABELS.map((label, i) => (
                  <NumberField
                    key={label}
                    label={label}
                    value={ratio[i]}
                    min={0}
                    onChange={(v) => {
                      const r: [number, number, number] = [...ratio];
                      r[i] = v ?? 0;
                      setRatio(r);
                      recheck({ ratio: r });
                    }}
                  />
                ))}
                <NumberField
                  label="Split seed"
                  value={seed}
                  onChange={(v) => {
                    setSeed(v ?? 42);
                    recheck({ splitSeed: v ?? 42 });
                  }}
                />
              </div>
              <p className="counts">
                <strong>{ins.counts.train}</strong> train · <strong>{ins.counts.val}</strong> validation ·{' '}
                <strong>{ins.counts.test}</strong> test {ins.format && <span className="muted">({ins.format})</span>}
              </p>
              {ins.warnings?.map((w) => (
                <p key={w} className="warn">
                  {w}
                </p>
              ))}
              <VirtualTable<DatasetItem>
                label="Dataset preview"
                rows={ins.preview ?? []}
                rowKey={(r) => r.id}
                columns={[
                  { title: 'Split', width: '5rem', cell: (r) => r.split },
                  { title: 'Id', width: '7rem', cell: (r) => <code>{r.id}</code> },
                  { title: 'Question', cell: (r) => r.question },
                  { title: 'Expected', width: '12rem', cell: (r) => r.answers.join(' | ') },
                ]}
              />
            </>
          )}
        </Card>
      )}

      <Card title="Scoring">
        <div className="grid-2">
          <Field label="Scorer" hint={SCORER_HELP[config.scorer.kind]}>
            {(id, hintId) => (
              <select
                id={id}
                aria-describedby={hintId}
                value={config.scorer.kind}
                onChange={(e) => setScorer(e.target.value as ScorerSpec['kind'])}
              >
                {SCORER_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {k}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Rollout template"
            hint={ROLLOUT_PRESETS.find((p) => p.id === config.rollout.preset)?.description}
          >
            {(id, hintId) => (
              <select
                id={id}
                aria-describedby={hintId}
                value={config.rollout.preset}
                onChange={(e) =>
                  setApp((s) => ({
                    config: { ...s.config, rollout: { ...s.config.rollout, preset: e.target.value as 'qa' } },
                  }))
                }
              >
                {ROLLOUT_PRESETS.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </Card>

      <Card title="Datasets in this browser">
        {saved.length === 0 ? (
          <p className="muted">None yet. Upload a dataset or load an example.</p>
        ) : (
          <ul className="list">
            {saved.map((d) => (
              <li key={d.id} className={d.id === datasetId ? 'selected' : undefined}>
                <label className="check">
                  <input type="radio" name="dataset" checked={d.id === datasetId} onChange={() => chooseDataset(d)} />
                  <span>
                    <strong>{d.name}</strong> — {d.counts.train} train, {d.counts.val} validation, {d.counts.test} test
                    {d.testLooks > 0 && (
                      <span className="warn">
                        {' '}
                        · test split looked at {d.testLooks} time{d.testLooks === 1 ? '' : 's'} before training ended
                      </span>
                    )}
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {current && <p className="ok-line">Training will use {current.name}.</p>}
      </Card>
    </div>
  );
}
