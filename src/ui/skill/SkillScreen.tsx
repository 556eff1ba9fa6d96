import { setApp, useApp } from '../../store/app-store';
import { parseSkillFile, skillName } from '../../core/skill/skill-file';
import { Card, TextField } from '../common/Field';
import { FileButton } from '../common/FileButton';
import { SkillEditor } from './LazyEditors';
import { protectedLineRanges } from './protected-lines';
import { EvaluatePanel } from './EvaluatePanel';
import { FeedbackPanel } from './FeedbackPanel';
import { BlamePanel } from './BlamePanel';
import { SectionCreditPanel } from './SectionCreditPanel';
import type { CreditMark } from './credit-marks';
import { useState } from 'react';
import type { LineMark } from './blame-marks';
import { openPackageFolder, openPackageZip } from './open-package';
import { PackageFiles } from './PackageFiles';
import { TriggerQueries } from './TriggerQueries';

/**
 * Opening a SKILL.md sets its frontmatter aside (name, description…): training edits only the
 * instructions, and the metadata goes back in front of them when the skill is exported as SKILL.md.
 */
async function openSkillFile(f: File): Promise<void> {
  const parsed = parseSkillFile(await f.text());
  if (!parsed.hasFrontmatter) {
    setApp({ skill: parsed.body, skillSource: f.name, skillParent: null, skillPackage: null });
    return;
  }
  setApp({
    skill: parsed.body,
    skillSource: `${f.name} (frontmatter set aside)`,
    skillParent: null,
    skillPackage: null,
    skillMeta: {
      name: parsed.meta.name ?? skillName(f.name.replace(/\.[^.]*$/, '')),
      description: parsed.meta.description ?? '',
    },
  });
}

export function SkillScreen() {
  const skill = useApp((s) => s.skill);
  const source = useApp((s) => s.skillSource);
  const meta = useApp((s) => s.skillMeta);
  const parent = useApp((s) => s.skillParent);
  const [marks, setMarks] = useState<LineMark[] | undefined>(undefined);
  const [credit, setCredit] = useState<CreditMark[] | undefined>(undefined);
  const regions = protectedLineRanges(skill);
  const setMeta = (p: Partial<{ name: string; description: string }>) =>
    setApp((s) => ({ skillMeta: { name: '', description: '', ...s.skillMeta, ...p } }));
  return (
    <div className="screen">
      <h1>Write the starting skill</h1>
      <p className="lead">
        The markdown document the target model runs with. Training changes it a few bounded edits at a time and keeps a
        change only if validation improves.
      </p>
      <Card
        title="Skill"
        actions={
          <span className="input-row">
            <FileButton
              small
              text="Open skill file"
              label="Open skill file"
              accept=".md,.markdown,.txt,text/markdown,text/plain"
              onFiles={([f]) => void openSkillFile(f)}
            />
            <FileButton
              small
              text="Open package (.zip)"
              label="Open skill package"
              accept=".zip,application/zip"
              onFiles={([f]) => void openPackageZip(f)}
            />
            <FileButton
              small
              folder
              text="Open package folder"
              label="Open skill package folder"
              onFiles={(files) => void openPackageFolder(files)}
            />
          </span>
        }
      >
        <SkillEditor
          label="Skill text"
          value={skill}
          marks={parent ? marks : undefined}
          credit={credit}
          onChange={(v) => setApp({ skill: v, skillSource: source })}
        />
        <p className="counts">
          {skill.length.toLocaleString()} characters · about {Math.ceil(skill.length / 4).toLocaleString()} tokens
          {source ? ` · from ${source}` : ''}
          {regions.length > 0 &&
            ` · ${regions.length} protected region${regions.length > 1 ? 's' : ''} (highlighted; edits never touch them)`}
        </p>
        <PackageFiles skill={skill} />
        {parent && (
          <BlamePanel
            key={parent.runId}
            runId={parent.runId}
            runLabel={parent.label}
            skill={skill}
            onMarks={setMarks}
          />
        )}
      </Card>
      <Card title="Skill package">
        <p className="muted">
          For exporting the trained skill as an Agent Skills SKILL.md; opening a SKILL.md fills them from its
          frontmatter. Training never edits them — but for the description, when the activation track (Train) trains it
          on trigger queries.
        </p>
        <div className="grid-2">
          <TextField
            label="Skill name"
            hint="Lowercase letters, digits and hyphens (it is made so on export)."
            value={meta?.name ?? ''}
            spellCheck={false}
            placeholder="my-skill"
            onChange={(name) => setMeta({ name })}
          />
          <TextField
            label="Skill description"
            hint="What the skill does and when to use it (up to 1024 characters). Empty: the skill’s first line."
            value={meta?.description ?? ''}
            maxLength={1024}
            onChange={(description) => setMeta({ description })}
          />
        </div>
        <TriggerQueries />
      </Card>
      <EvaluatePanel />
      <SectionCreditPanel onMarks={setCredit} />
      <FeedbackPanel />
    </div>
  );
}
