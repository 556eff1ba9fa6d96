/** A step's merged patch, each edit marked chosen or not by the ranking that applied the top ones. */
import type { StepDetail } from '../../worker/api-types';
import type { Edit } from '../../core/skill/edits';
import { Card } from '../common/Field';

type Artifacts = StepDetail['artifacts'];

function EditList({ edits, chosen }: { edits: Edit[]; chosen?: Set<number> }) {
  return (
    <ol className="edits">
      {edits.map((e, i) => (
        <li key={i} className={chosen && !chosen.has(i) ? 'dropped' : undefined}>
          <code>{String(e.op)}</code> {chosen?.has(i) && <span className="badge accept">chosen</span>}
          {e.target ? <div className="mono small">target: {String(e.target)}</div> : null}
          {e.content ? <div className="mono">{String(e.content)}</div> : null}
          <span className="muted small">
            {' '}
            support {e.support_count ?? 1} · {e.source_type ?? 'failure'}
          </span>
        </li>
      ))}
    </ol>
  );
}

export function MergedEdits({
  merged,
  ranked,
}: {
  merged: NonNullable<Artifacts['merged']>;
  ranked: Artifacts['ranked'];
}) {
  const chosen = new Set(ranked ? ranked.edits.map((e) => merged.edits.indexOf(e)).filter((i) => i >= 0) : []);
  // Read back from storage, the ranked edits are copies of the merged ones: then they are found by value.
  if (ranked && chosen.size === 0)
    ranked.edits.forEach((e) =>
      chosen.add(merged.edits.findIndex((m) => m.content === e.content && m.target === e.target && m.op === e.op)),
    );
  return (
    <Card title={`Merged patch and ranking (top ${ranked?.edits.length ?? 0} chosen)`}>
      <p className="muted small">{ranked?.reasoning ?? merged.reasoning}</p>
      <EditList edits={merged.edits} chosen={chosen} />
    </Card>
  );
}
