import type { RunDetail } from '../../worker/api-types';
import { Card } from '../common/Field';
import { pct } from './run-format';
import { rewriteVerdict } from './activation-verdict';
import { EvidenceBought } from './EvidenceBought';

type ActivationState = NonNullable<RunDetail['activation']>;
type Evidence = ActivationState['epochs'][number]['evidence'];

/**
 * The activation track of a run (issue #23 item 4): the description it started from and the one
 * it kept, how often the target decided right to load the skill with each, and each epoch's rewrite:
 * the gate's verdict on it in the run's comparator's terms (`gateConfidence`), a first rewrite it
 * rejected before, and what an undecided verdict bought before deciding (issue #40).
 */
export function ActivationCard({
  activation: a,
  gateConfidence,
}: {
  activation?: ActivationState;
  gateConfidence: number;
}) {
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
        {a.epochs.map((e) =>
          e.earlier?.length ? (
            <li key={e.epoch}>
              Epoch {e.epoch}: train queries {pct(e.trainBefore)} right
              <ul>
                {e.earlier.map((r, i) => (
                  <li key={i}>
                    <Rewrite
                      said={rewriteVerdict({ ...r, action: 'reject' }, gateConfidence, 'first rewrite')}
                      {...r}
                    />
                  </li>
                ))}
                <li>
                  <Rewrite
                    said={rewriteVerdict(
                      e,
                      gateConfidence,
                      e.lookAhead ? 'its refinement (from its own misfires)' : 'second rewrite',
                    )}
                    candidate={e.action === 'accept' ? undefined : e.candidate}
                    evidence={e.evidence}
                  />
                </li>
              </ul>
            </li>
          ) : (
            <li key={e.epoch}>
              Epoch {e.epoch}: train queries {pct(e.trainBefore)} right ·{' '}
              <Rewrite
                said={rewriteVerdict(e, gateConfidence)}
                candidate={e.action === 'accept' ? undefined : e.candidate}
                evidence={e.evidence}
              />
            </li>
          ),
        )}
      </ul>
    </Card>
  );
}

/** One rewrite at the gate: the verdict, the rewrite's text when it was not kept, what an undecided verdict bought. */
function Rewrite({ said, candidate, evidence }: { said: string; candidate?: string; evidence?: Evidence }) {
  return (
    <>
      {said}
      {candidate && <span className="muted"> — “{candidate}”</span>}
      {evidence && <EvidenceBought evidence={evidence} />}
    </>
  );
}
