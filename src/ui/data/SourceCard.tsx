import { useState, type DragEvent } from 'react';
import { PACKAGE_EVALS } from '../../core/skill/skill-package';
import { setApp, useApp } from '../../store/app-store';
import { Card } from '../common/Field';
import { FileButton } from '../common/FileButton';
import { SelectField } from '../common/SelectField';
import { loadExample, type ExampleInfo } from './examples';
import type { Ratio } from './use-staged-dataset';

/** Where a dataset comes from: a file (picked or dropped), a bundled example, or the open package's evals. */
export function SourceCard({
  examples,
  busy,
  ratio,
  stage,
  setRatio,
}: {
  examples: ExampleInfo[];
  busy: boolean;
  ratio: Ratio;
  stage: (name: string, file: Blob, r?: Ratio) => Promise<void>;
  setRatio: (r: Ratio) => void;
}) {
  const skillPackage = useApp((s) => s.skillPackage);
  const packageEvals = skillPackage?.assets.find((a) => a.path === PACKAGE_EVALS);
  const [exampleId, setExampleId] = useState('elements');
  const [drag, setDrag] = useState(false);
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
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDrag(false);
    const f = e.dataTransfer.files[0];
    if (f) void openFile(f);
  };
  return (
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
        <FileButton
          text="Upload dataset"
          label="Upload dataset"
          accept=".json,.jsonl,.ndjson,.csv,application/json,text/csv"
          onFiles={([f]) => void openFile(f)}
        />
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
  );
}
