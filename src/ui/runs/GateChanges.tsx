/** Each validation item's change; with a settled verdict (noisy targets), its lists decide — not the first answers. */
import type { RolloutRow } from '../../worker/api-types';
import { VirtualTable } from '../common/VirtualTable';

export function GateChanges({
  gate,
  before,
  settled,
}: {
  gate: RolloutRow[];
  before: RolloutRow[];
  settled?: { improved: string[]; regressed: string[] };
}) {
  const prev = new Map(before.map((r) => [r.itemId, r]));
  const rows = gate.map((g) => {
    const p = prev.get(g.itemId);
    const first = !p ? 'unknown' : g.hard > p.hard ? 'improved' : g.hard < p.hard ? 'regressed' : 'unchanged';
    const change =
      !settled || !p
        ? first
        : settled.improved.includes(g.itemId)
          ? 'improved'
          : settled.regressed.includes(g.itemId)
            ? 'regressed'
            : 'unchanged';
    return { g, p, change };
  });
  const n = (c: string) => rows.filter((r) => r.change === c).length;
  return (
    <>
      <p>
        <span className="badge pass">{n('improved')} improved</span>{' '}
        <span className="badge fail">{n('regressed')} regressed</span>{' '}
        <span className="badge">{n('unchanged')} unchanged</span>
        {n('unknown') ? <span className="badge"> {n('unknown')} not compared</span> : null}
      </p>
      <VirtualTable
        label="Validation items"
        rows={rows.filter((r) => r.change !== 'unchanged')}
        rowKey={(r) => r.g.itemId}
        columns={[
          { title: 'Item', width: '7rem', cell: (r) => <code>{r.g.itemId}</code> },
          {
            title: 'Change',
            width: '7rem',
            cell: (r) => (
              <span className={`badge ${r.change === 'improved' ? 'pass' : r.change === 'regressed' ? 'fail' : ''}`}>
                {r.change}
              </span>
            ),
          },
          { title: 'Before', cell: (r) => <span className="mono">{r.p?.predicted ?? '—'}</span> },
          { title: 'After', cell: (r) => <span className="mono">{r.g.predicted}</span> },
        ]}
      />
    </>
  );
}
