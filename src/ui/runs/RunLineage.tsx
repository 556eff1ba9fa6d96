/** The runs a run was branched from and into, each a link that opens it. */
import type { RunDetail, RunListItem } from '../../worker/api-types';

/** The runs a run was branched from and into, from the runs list (Runs screen). */
export interface Lineage {
  parent?: RunListItem;
  branches: RunListItem[];
}

export function RunLineage({
  run,
  lineage,
  onSelect,
}: {
  run: RunDetail['run'];
  lineage?: Lineage;
  onSelect?: (id: string) => void;
}) {
  if (!run.parent && (lineage?.branches.length ?? 0) === 0) return null;
  return (
    <p className="lineage">
      {run.parent && (
        <>
          Branched from{' '}
          {lineage?.parent ? (
            <button type="button" className="link" onClick={() => onSelect?.(lineage.parent!.id)}>
              {lineage.parent.name}
            </button>
          ) : (
            'a run no longer in this browser'
          )}
          {run.parent.label && ` (${run.parent.label})`}.{' '}
        </>
      )}
      {lineage && lineage.branches.length > 0 && (
        <>
          Branches:{' '}
          {lineage.branches.map((b, i) => (
            <span key={b.id}>
              {i > 0 && ', '}
              <button type="button" className="link" onClick={() => onSelect?.(b.id)}>
                {b.name}
              </button>
              {b.parent?.label && ` (from ${b.parent.label})`}
            </span>
          ))}
          .
        </>
      )}
    </p>
  );
}
