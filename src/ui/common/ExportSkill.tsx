import { useState } from 'react';
import {
  SKILL_FILE_FORMATS,
  SKILL_FILE_FORMAT_LABELS,
  formatSkillFile,
  skillFileName,
  type SkillFileFormat,
  type SkillMeta,
} from '../../core/skill-file';
import { downloadText, safeFileName } from './download';

/**
 * "Export best skill" with its file format: plain markdown, an Agent Skills SKILL.md (the run's
 * name and description in front of the trained body) or AGENTS.md.
 */
export function ExportSkill({
  skill,
  runName,
  meta,
  onSaved,
}: {
  skill: string;
  runName: string;
  meta?: SkillMeta;
  onSaved?: (fileName: string) => void;
}) {
  const [format, setFormat] = useState<SkillFileFormat>('markdown');
  const save = () => {
    const fileName = skillFileName(format, safeFileName(runName));
    downloadText(fileName, formatSkillFile(skill, format, meta ?? { name: runName, description: '' }), 'text/markdown');
    onSaved?.(fileName);
  };
  return (
    <span className="input-row">
      <select
        aria-label="Skill file format"
        value={format}
        onChange={(e) => setFormat(e.target.value as SkillFileFormat)}
      >
        {SKILL_FILE_FORMATS.map((f) => (
          <option key={f} value={f}>
            {SKILL_FILE_FORMAT_LABELS[f]}
          </option>
        ))}
      </select>
      <button type="button" onClick={save}>
        Export best skill
      </button>
    </span>
  );
}
