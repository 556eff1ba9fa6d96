import type { Diagnosis } from '../../core/verdict/diagnostics';
import { Card } from './Field';

const CAUSE_TITLES: Record<string, string> = {
  already_perfect: 'Already perfect',
  errors: 'Errors',
  no_failures: 'Nothing failed',
  no_patches: 'No edits proposed',
  no_edits_applied: 'No edit survived',
  train_check: 'No better on train',
  vetoed: 'Vetoed by you',
  gate_rule: 'Refused by the gate rule',
  ties: 'Ties on validation',
  worse: 'Worse on validation',
};

/** Why a run accepted no step: each cause with its steps, its evidence and what to change. */
export function DiagnosisCard({ diagnosis }: { diagnosis: Diagnosis }) {
  return (
    <Card title="Why no step was accepted">
      <p>
        <strong>{diagnosis.headline}</strong>
      </p>
      <ul className="problems">
        {diagnosis.causes.map((c) => (
          <li key={c.cause}>
            <strong>{CAUSE_TITLES[c.cause] ?? c.cause}</strong>
            {c.steps.length > 0 && ` (step${c.steps.length === 1 ? '' : 's'} ${c.steps.join(', ')})`}: {c.evidence}{' '}
            <span className="muted">{c.advice}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
