import type { RunDetail } from '../../worker/api-types';
import { Card } from '../common/Field';

/** Each epoch's counts, and what its boundary wrote: the epoch guidance and the optimizer's memory. */
export function EpochsCard({ epochs }: { epochs: RunDetail['epochStats'] }) {
  if (!epochs.length) return null;
  return (
    <Card title="Epochs">
      {epochs.map((e) => (
        <details key={e.epoch}>
          <summary>
            Epoch {e.epoch}: {e.accepts} accepted, {e.rejects} rejected, {e.skips} skipped · slow update{' '}
            {e.slowUpdate?.action.replace(/_/g, ' ') ?? 'off'} · meta skill{' '}
            {e.metaSkill?.action.replace(/_/g, ' ') ?? 'off'}
          </summary>
          {e.slowUpdate?.content && (
            <>
              <h3>Epoch guidance</h3>
              <pre className="mono small scroll">{e.slowUpdate.content}</pre>
            </>
          )}
          {e.metaSkill?.content && (
            <>
              <h3>Optimizer memory</h3>
              <pre className="mono small scroll">{e.metaSkill.content}</pre>
            </>
          )}
        </details>
      ))}
    </Card>
  );
}
