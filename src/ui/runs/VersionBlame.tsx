import { useState } from 'react';
import type { SkillVersion } from '../../worker/api-types';
import { BlamePanel } from '../skill/BlamePanel';
import type { LineMark } from '../skill/blame-marks';
import { SkillEditor } from '../skill/LazyEditors';
import { originLabel } from '../../core/skill/version-origin';

/** Edit blame of one stored version: the text read-only, with its gutter marks and hover, and the list. */
export function VersionBlame({ runId, version }: { runId: string; version: SkillVersion }) {
  const [marks, setMarks] = useState<LineMark[] | undefined>(undefined);
  const label = originLabel(version.origin);
  return (
    <div className="version-blame">
      <h3>Where each line of {label} came from</h3>
      <SkillEditor label={`Skill version ${label}`} value={version.text} readOnly marks={marks} />
      <BlamePanel runId={runId} runLabel={label} skill={version.text} onMarks={setMarks} alwaysOn />
    </div>
  );
}
