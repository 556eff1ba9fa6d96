/**
 * Riders (issue #43): each edit of a bundle that gained train items, left out in turn on those gains.
 * An edit whose absence lost none carried nothing the check saw — a wrong guess riding beside real
 * fixes — and was left out before the gate when the bundle without it checked as well. Edits that
 * name a gained item were not left out: the card says how many.
 */
import type { RidersArtifact } from '../../worker/api-types';
import { Card } from '../common/Field';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const text = (e: { content?: string; target?: string }) => String(e.content || e.target || '(empty)');

export function RidersCard({ riders }: { riders: RidersArtifact }) {
  const carried = riders.probes.filter((p) => p.lost.length).length;
  const none = riders.probes.filter((p) => !p.lost.length);
  const named = riders.named?.length ?? 0;
  return (
    <Card title="What each edit carried">
      <p>
        {named ? `${plural(named, 'edit')} named a gained item and carried it by its own evidence; ` : ''}
        {named ? 'the other' : 'Each of the bundle’s'} {plural(riders.probes.length, 'edit')}{' '}
        {named && riders.probes.length > 1 ? 'were' : 'was'} left out in turn on the{' '}
        {plural(riders.gains.length, 'train item')} it gained: {carried} carried a gain
        {none.length ? `, ${none.length} none (a rider)` : ''} →{' '}
        <strong>
          {!riders.dropped.length
            ? none.length
              ? 'kept: every edit alone looked a rider, so none could be told apart'
              : 'every edit kept'
            : riders.taken
              ? `${plural(riders.dropped.length, 'rider')} left out before the gate`
              : 'kept: the bundle without them lost a gain or broke an item on train'}
        </strong>
        .
      </p>
      {none.length > 0 && (
        <ul className="edits" aria-label="Riders">
          {none.map((p) => (
            <li key={p.index}>
              <code>{String(p.edit.op)}</code> <span className="mono small">{text(p.edit)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
