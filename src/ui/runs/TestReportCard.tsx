import type { RunDetail } from '../../worker/api-types';
import { Card } from '../common/Field';
import { DataTable } from '../common/DataTable';
import { pct } from './run-format';

type TestRow = NonNullable<RunDetail['summary']>['tests'][number];

const SKILL_NAMES: Record<string, string> = {
  none: 'No skill',
  initial: 'Initial',
  best: 'Best (exported)',
  final: 'Final',
};

/** Each skill's score on the held-out test split, and the best skill's gain over the initial one. */
export function TestReportCard({
  tests,
  testDelta,
}: {
  tests: readonly TestRow[];
  testDelta: number | null | undefined;
}) {
  if (!tests.length) return null;
  return (
    <Card title="Test report">
      <DataTable
        rows={tests}
        rowKey={(t) => t.skill}
        columns={[
          { header: 'Skill', cell: (t) => SKILL_NAMES[t.skill] ?? t.skill },
          { header: 'Test accuracy', num: true, cell: (t) => pct(t.hard) },
          { header: 'Partial credit', num: true, cell: (t) => pct(t.soft) },
          { header: 'Items', num: true, cell: (t) => `${t.n}${t.errors ? ` (+${t.errors} errored)` : ''}` },
        ]}
      />
      {testDelta !== null && testDelta !== undefined && (
        <p>
          Best vs initial:{' '}
          <strong>
            {testDelta >= 0 ? '+' : ''}
            {(testDelta * 100).toFixed(1)} points
          </strong>{' '}
          on held-out test items.
        </p>
      )}
    </Card>
  );
}
