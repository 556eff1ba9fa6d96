import { useState } from 'react';
import { originLabel } from '../../core/skill/version-origin';
import type { SkillVersion } from '../../worker/api-types';
import { Card } from '../common/Field';
import { DataTable } from '../common/DataTable';
import { SkillDiff } from '../skill/LazyEditors';
import { VersionBlame } from './VersionBlame';

// Versions are told apart by origin: a text that recurs (a step that undoes another) is a version of its own.
function VersionSelect({
  label,
  versions,
  value,
  onChange,
}: {
  label: string;
  versions: readonly SkillVersion[];
  value?: string;
  onChange: (origin: string) => void;
}) {
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

/** The run's skill versions: compare any two, see where each line came from, or start a run from one. */
export function VersionsCard({
  runId,
  versions,
  best,
  onNewRun,
}: {
  runId: string;
  versions: readonly SkillVersion[];
  best: string;
  onNewRun: (v: SkillVersion) => void;
}) {
  const [compare, setCompare] = useState<[string, string] | null>(null);
  const [blameOf, setBlameOf] = useState<string | null>(null);
  const textOf = (origin: string) => versions.find((v) => v.origin === origin)?.text ?? '';
  const indexOf = new Map(versions.map((v, i) => [v.origin, i]));
  return (
    <Card title="Skill versions">
      <DataTable
        rows={versions}
        rowKey={(v) => v.origin}
        columns={[
          {
            header: 'Version',
            cell: (v) => (
              <>
                {originLabel(v.origin)} {v.text === best && <span className="badge accept">best</span>}
              </>
            ),
          },
          { header: 'Step', cell: (v) => v.step },
          { header: 'Length', num: true, cell: (v) => v.text.length },
          {
            header: 'Compare',
            cell: (v) => {
              const i = indexOf.get(v.origin) ?? 0;
              return (
                i > 0 && (
                  <>
                    <button
                      type="button"
                      className="link"
                      onClick={() => setCompare([versions[i - 1].origin, v.origin])}
                    >
                      vs previous
                    </button>{' '}
                    <button type="button" className="link" onClick={() => setCompare([versions[0].origin, v.origin])}>
                      vs initial
                    </button>
                  </>
                )
              );
            },
          },
          {
            header: '',
            cell: (v) => (
              <>
                <button
                  type="button"
                  className="link"
                  onClick={() => setBlameOf(blameOf === v.origin ? null : v.origin)}
                >
                  Where lines came from
                </button>{' '}
                <button type="button" className="link" onClick={() => onNewRun(v)}>
                  New run from this version
                </button>
              </>
            ),
          },
        ]}
      />
      {versions.length > 1 && (
        <div className="row">
          <label className="inline">
            Compare
            <VersionSelect
              label="First version"
              versions={versions}
              value={compare?.[0]}
              onChange={(h) => setCompare([h, compare?.[1] ?? versions[versions.length - 1].origin])}
            />
            with
            <VersionSelect
              label="Second version"
              versions={versions}
              value={compare?.[1]}
              onChange={(h) => setCompare([compare?.[0] ?? versions[0].origin, h])}
            />
          </label>
        </div>
      )}
      {compare && <SkillDiff original={textOf(compare[0])} modified={textOf(compare[1])} />}
      {blameOf && versions.some((v) => v.origin === blameOf) && (
        <VersionBlame key={blameOf} runId={runId} version={versions.find((v) => v.origin === blameOf)!} />
      )}
    </Card>
  );
}
