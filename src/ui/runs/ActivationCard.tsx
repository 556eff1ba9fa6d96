import type { RunDetail } from '../../worker/api-types';
import { Card } from '../common/Field';
import { pct } from './run-format';

type ActivationState = NonNullable<RunDetail['activation']>;

const ACTIONS: Record<ActivationState['epochs'][number]['action'], string> = {
  accept: 'kept',
  reject: 'rejected at the gate',
  no_misfires: 'no misfires to fix',
  no_candidate: 'no usable rewrite',
};

/**
 * The activation track of a run (issue #23 item 4): the description it started from and the one
 * it kept, how often the target decided right to load the skill with each, and each epoch's rewrite.
 */
export function ActivationCard({ activation: a }: { activation?: ActivationState }) {
  if (!a) return null;
  const changed = a.description !== a.initialDescription;
  return (
    <Card title="Activation track — the description">
      <p>
        {changed ? 'Kept a new description' : 'Kept the starting description'}: decided right on{' '}
        <strong>{pct(a.score)}</strong> of the validation queries (starting description {pct(a.baselineScore)})
        {a.test && (
          <>
            {' '}
            · test queries: <strong>{pct(a.test.best)}</strong> against {pct(a.test.initial)} ({a.test.n} queries)
          </>
        )}
        .
      </p>
      <div className="grid-2">
        <div>
          <h3>Starting description</h3>
          <p className="mono small" data-testid="activation-initial">
            {a.initialDescription || '(empty)'}
          </p>
        </div>
        <div>
          <h3>{changed ? 'Trained description (exported in SKILL.md)' : 'Description'}</h3>
          <p className="mono small" data-testid="activation-best">
            {a.description || '(empty)'}
          </p>
        </div>
      </div>
      <ul className="small activation-epochs">
        {a.epochs.map((e) => (
          <li key={e.epoch}>
            Epoch {e.epoch}: train queries {pct(e.trainBefore)} right · rewrite {ACTIONS[e.action]}
            {e.valCandidate !== undefined && ` (validation ${pct(e.valCurrent)} → ${pct(e.valCandidate)})`}
            {e.candidate && e.action !== 'accept' && <span className="muted"> — “{e.candidate}”</span>}
          </li>
        ))}
      </ul>
    </Card>
  );
}
