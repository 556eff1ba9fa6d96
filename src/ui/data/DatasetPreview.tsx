import type { DatasetItem, FieldMapping, MappingRole } from '../../core/dataset/dataset-types';
import { Alert, Card, Field, NumberField } from '../common/Field';
import { VirtualTable } from '../common/VirtualTable';
import type { Loaded, Mapping, Ratio } from './use-staged-dataset';

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

/** Every problem of a file that was not loaded, each naming its row and field. */
export function ProblemsAlert({ loaded }: { loaded: Loaded }) {
  return (
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
  );
}

/** A staged file: which field plays which role, the split shares and seed, the counts and the first items. */
export function DatasetPreview(p: {
  loaded: Loaded;
  mapping: Mapping;
  ratio: Ratio;
  seed: number;
  busy: boolean;
  choose: { mapping: (m: Mapping) => void; ratio: (r: Ratio) => void; seed: (s: number) => void };
  save: () => void;
}) {
  const ins = p.loaded.inspection;
  const fields = ins?.fieldNames ?? [];
  return (
    <Card
      title={`Preview — ${p.loaded.name}`}
      actions={
        ins?.counts && (
          <button className="primary" onClick={p.save} disabled={p.busy}>
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
                  value={p.mapping[role] ?? (ins?.mapping as FieldMapping | undefined)?.[role] ?? ''}
                  onChange={(e) => p.choose.mapping({ ...p.mapping, [role]: e.target.value })}
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
                value={p.ratio[i]}
                min={0}
                onChange={(v) => {
                  const r: Ratio = [...p.ratio];
                  r[i] = v ?? 0;
                  p.choose.ratio(r);
                }}
              />
            ))}
            <NumberField label="Split seed" value={p.seed} onChange={(v) => p.choose.seed(v ?? 42)} />
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
  );
}
