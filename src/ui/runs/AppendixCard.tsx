import type { AppendixFlush } from '../../worker/api-types';
import { Card } from '../common/Field';

/** The reminders a step merged into the Execution Notes Appendix, and the re-scored current skill. */
export function AppendixCard({ flush }: { flush: AppendixFlush }) {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    <Card title="Execution notes appendix">
      <p className="muted small">
        {flush.added.length} reminder{flush.added.length === 1 ? '' : 's'} from the analysts · notes {flush.notesBefore}{' '}
        → {flush.notesAfter}
        {flush.consolidated &&
          ` · compacted ${flush.consolidated.from} → ${flush.consolidated.to}${flush.consolidated.used ? '' : ' (reply not used)'}`}
      </p>
      <ul>
        {[...new Set(flush.added)].map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
      <p className="small">
        {flush.scoreAfter === null
          ? 'The appendix already held these reminders: the skill did not change.'
          : `The reminders changed the skill outside the gate, so it was scored again on validation: ${pct(flush.scoreBefore)} → ${pct(flush.scoreAfter)}. The next candidate must beat the new score.`}
      </p>
    </Card>
  );
}
