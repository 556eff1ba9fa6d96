import { setApp, useApp } from '../../store/app-store';
import { Card } from '../common/Field';
import { SkillEditor } from './LazyEditors';
import { protectedLineRanges } from './protected-lines';
import { EvaluatePanel } from './EvaluatePanel';

export function SkillScreen() {
  const skill = useApp((s) => s.skill);
  const source = useApp((s) => s.skillSource);
  const regions = protectedLineRanges(skill);
  const open = async (f: File) => setApp({ skill: await f.text(), skillSource: f.name });
  return (
    <div className="screen">
      <h1>Write the starting skill</h1>
      <p className="lead">The markdown document the target model runs with. Training changes it a few bounded edits at a time and keeps a change only if validation improves.</p>
      <Card
        title="Skill"
        actions={
          <label className="file-label small">
            <span>Open skill file</span>
            <input type="file" aria-label="Open skill file" accept=".md,.markdown,.txt,text/markdown,text/plain" onChange={(e) => e.target.files?.[0] && void open(e.target.files[0])} />
          </label>
        }
      >
        <SkillEditor label="Skill text" value={skill} onChange={(v) => setApp({ skill: v, skillSource: source })} />
        <p className="counts">
          {skill.length.toLocaleString()} characters · about {Math.ceil(skill.length / 4).toLocaleString()} tokens{source ? ` · from ${source}` : ''}
          {regions.length > 0 && ` · ${regions.length} protected region${regions.length > 1 ? 's' : ''} (highlighted; edits never touch them)`}
        </p>
      </Card>
      <EvaluatePanel />
    </div>
  );
}
