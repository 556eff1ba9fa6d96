import type { StepRecord } from '../../worker/api-types';
import { Card } from '../common/Field';
import { DataTable } from '../common/DataTable';
import { pct } from './run-format';

/** The run's steps, one row each; a step's number opens it in the inspector. */
export function StepsCard({
  steps,
  selected,
  onInspect,
}: {
  steps: readonly StepRecord[];
  selected: number | null;
  onInspect: (step: number) => void;
}) {
  return (
    <Card title="Steps">
      {steps.length === 0 ? (
        <p className="muted">No steps yet.</p>
      ) : (
        <DataTable
          className="table clickable"
          rows={steps}
          rowKey={(s) => s.step}
          rowClass={(s) => (s.step === selected ? 'selected' : undefined)}
          columns={[
            {
              header: 'Step',
              cell: (s) => (
                <button
                  type="button"
                  className="link"
                  onClick={() => onInspect(s.step)}
                  aria-label={`Inspect step ${s.step}`}
                >
                  {s.step}
                </button>
              ),
            },
            { header: 'Epoch', cell: (s) => s.epoch },
            {
              header: 'Action',
              cell: (s) => (
                <span className={`badge ${s.action.includes('accept') ? 'pass' : s.action === 'reject' ? 'fail' : ''}`}>
                  {s.action.replace(/_/g, ' ')}
                </span>
              ),
            },
            { header: 'Train', num: true, cell: (s) => pct(s.rolloutHard) },
            {
              header: 'Candidate',
              num: true,
              cell: (s) => (s.candidateGateScore === null ? '—' : s.candidateGateScore.toFixed(3)),
            },
            { header: 'Current', num: true, cell: (s) => s.currentScore.toFixed(3) },
            { header: 'Edits', num: true, cell: (s) => s.nEditsRanked },
          ]}
        />
      )}
    </Card>
  );
}
