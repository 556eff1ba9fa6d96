import { useState } from 'react';
import type { RolloutRow } from '../../worker/api-types';
import { Card } from '../common/Field';
import { VirtualTable } from '../common/VirtualTable';
import { isPass } from '../../core/verdict/credit';
import { TrajectoryView } from './TrajectoryView';

type Filter = 'all' | 'pass' | 'fail' | 'error';

function outcome(r: RolloutRow): 'pass' | 'fail' | 'error' {
  return r.status === 'error' ? 'error' : isPass(r.hard) ? 'pass' : 'fail';
}

/** A step's train rollouts, filtered by outcome; an item opens its trajectory turn by turn. */
export function RolloutsCard({ rollouts }: { rollouts: RolloutRow[] }) {
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<string | null>(null);
  const rows = rollouts.filter((r) => filter === 'all' || outcome(r) === filter);
  const count = (f: Filter) => rollouts.filter((r) => outcome(r) === f).length;
  const key = (r: RolloutRow) => `${r.phase}-${r.order}`;
  const shown = rollouts.find((r) => key(r) === open);
  const agents = rollouts.some((r) => r.trajectory);
  return (
    <Card title="Rollouts">
      <div className="segmented" role="group" aria-label="Filter rollouts">
        {(['all', 'pass', 'fail', 'error'] as Filter[]).map((f) => (
          <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {f} ({f === 'all' ? rollouts.length : count(f)})
          </button>
        ))}
      </div>
      {agents && <p className="muted small">Choose an item to read its trajectory, turn by turn.</p>}
      <VirtualTable<RolloutRow>
        label="Rollouts of this step"
        rows={rows}
        rowHeight={52}
        rowKey={key}
        columns={[
          {
            title: 'Item',
            width: '6rem',
            cell: (r) => (
              <button
                type="button"
                className="link"
                aria-pressed={open === key(r)}
                aria-label={`Trajectory of ${r.itemId}`}
                onClick={() => setOpen(open === key(r) ? null : key(r))}
              >
                <code>{r.itemId}</code>
              </button>
            ),
          },
          {
            title: 'Result',
            width: '5rem',
            cell: (r) => <span className={`badge ${outcome(r)}`}>{outcome(r)}</span>,
          },
          ...(agents ? [{ title: 'Turns', width: '4rem', cell: (r: RolloutRow) => <span>{r.turns ?? 1}</span> }] : []),
          { title: 'Answer', width: '10rem', cell: (r) => <span className="mono">{r.predicted}</span> },
          {
            title: 'Why',
            cell: (r) => (
              <span className="small">
                {r.error ? r.error.message : (r.failReason ?? `hard ${r.hard}, soft ${r.soft.toFixed(2)}`)}
              </span>
            ),
          },
        ]}
      />
      {shown && <TrajectoryView row={shown} />}
    </Card>
  );
}
