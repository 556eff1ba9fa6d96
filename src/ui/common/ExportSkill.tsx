import { useState } from 'react';
import {
  SKILL_FILE_FORMATS,
  SKILL_FILE_FORMAT_LABELS,
  formatSkillFile,
  skillFileName,
  type SkillFileFormat,
  type SkillMeta,
} from '../../core/skill/skill-file';
import { newShell, packageOf, withTrainedDescription, writePackageZip } from '../../core/skill/package-zip';
import { hasFileSections } from '../../core/skill/skill-package';
import { trainer } from '../../client/trainer-client';
import { downloadBlob, downloadText, safeFileName } from './download';

type ExportFormat = SkillFileFormat | 'package';

/**
 * "Export best skill" with its file format: plain markdown, an Agent Skills SKILL.md (the run's
 * name and description in front of the trained body), AGENTS.md, or — for a skill package — the
 * package as a .zip in the layout it was opened with (frontmatter and untrained files as they were).
 */
export function ExportSkill({
  skill,
  runName,
  runId,
  meta,
  trainedDescription,
  onSaved,
}: {
  skill: string;
  runName: string;
  /** The run whose package shell (frontmatter, untrained files) the zip is written with. */
  runId?: string;
  meta?: SkillMeta;
  /** The description the activation track kept, when it changed it: written into SKILL.md's frontmatter. */
  trainedDescription?: string | undefined;
  onSaved?: (fileName: string) => void;
}) {
  const isPackage = hasFileSections(skill);
  const [chosen, setFormat] = useState<ExportFormat>(isPackage ? 'package' : 'markdown');
  const format = chosen === 'package' && !isPackage ? 'markdown' : chosen;
  const save = async () => {
    const given = meta ?? { name: runName, description: '' };
    const metaOrName = trainedDescription ? { ...given, description: trainedDescription } : given;
    if (format === 'package') {
      const stored = runId ? await trainer().getRunPackage(runId) : null;
      const shell = stored ? withTrainedDescription(stored, trainedDescription) : newShell(metaOrName, runName, skill);
      const fileName = `${safeFileName(shell.name)}.zip`;
      const zip = writePackageZip(packageOf(shell, skill));
      downloadBlob(fileName, new Blob([zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' }));
      onSaved?.(fileName);
      return;
    }
    const fileName = skillFileName(format, safeFileName(runName));
    downloadText(fileName, formatSkillFile(skill, format, metaOrName), 'text/markdown');
    onSaved?.(fileName);
  };
  return (
    <span className="input-row">
      <select aria-label="Skill file format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {isPackage && <option value="package">Skill package (.zip)</option>}
        {SKILL_FILE_FORMATS.map((f) => (
          <option key={f} value={f}>
            {SKILL_FILE_FORMAT_LABELS[f]}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => void save()}>
        Export best skill
      </button>
    </span>
  );
}
