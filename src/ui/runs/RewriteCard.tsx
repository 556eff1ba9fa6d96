import type { RewriteArtifact } from '../../worker/api-types';
import { Card } from '../common/Field';

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** What a whole-skill update proposed and wrote (rewrite and full-rewrite modes). */
export function RewriteCard({ rewrite }: { rewrite: RewriteArtifact }) {
  const title = rewrite.mode === 'rewrite' ? 'Rewrite from suggestions' : 'Full rewrite';
  return (
    <Card title={title}>
      <p className="muted small">{rewrite.reasoning}</p>
      {rewrite.skill === null && (
        <p className="badge error">The optimizer wrote no usable skill: the step was skipped (skip no rewrite).</p>
      )}
      {rewrite.mode === 'rewrite' && (
        <>
          <h4>
            Suggestions ({rewrite.selected.length} of {rewrite.merged.length} chosen for the rewrite)
          </h4>
          <ol className="edits">
            {rewrite.merged.map((s, i) => {
              const chosen = rewrite.selected.some((x) => text(x.instruction) === text(s.instruction));
              return (
                <li key={i} className={chosen ? undefined : 'dropped'}>
                  <span className="badge">{text(s.type)}</span> <span className="badge">{text(s.priority_hint)}</span>{' '}
                  <strong>{text(s.title)}</strong> {chosen && <span className="badge accept">chosen</span>}
                  <div className="small">{text(s.instruction)}</div>
                  {text(s.motivation) && <div className="muted small">{text(s.motivation)}</div>}
                </li>
              );
            })}
          </ol>
        </>
      )}
      {rewrite.changeSummary.length > 0 && (
        <>
          <h4>What the rewrite changed</h4>
          <ul>
            {rewrite.changeSummary.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}
