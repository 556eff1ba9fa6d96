import type { RunDetail } from '../../worker/api-types';
import { Card } from '../common/Field';
import { DataTable, type Column } from '../common/DataTable';
import { pct } from './run-format';
import { PassK } from './PassKLine';

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
  // With several tries per item (issue #43): pass^1 and pass^k over the same tries, and the items that flipped.
  const k = tests.find((t) => t.passK)?.passK?.k;
  const tries: Column<TestRow>[] = k
    ? [
        { header: <PassK k={1} />, num: true, cell: (t) => pct(t.passK?.passAt1) },
        { header: <PassK k={k} />, num: true, cell: (t) => pct(t.passK?.passAtK) },
        { header: 'Items flipped', num: true, cell: (t) => pct(t.passK?.flipRate) },
      ]
    : [];
  return (
    <Card title="Test report">
      <DataTable
        rows={tests}
        rowKey={(t) => t.skill}
        columns={[
          { header: 'Skill', cell: (t) => SKILL_NAMES[t.skill] ?? t.skill },
          { header: 'Test accuracy', num: true, cell: (t) => pct(t.hard) },
          ...tries,
          { header: 'Partial credit', num: true, cell: (t) => pct(t.soft) },
          { header: 'Items', num: true, cell: (t) => `${t.n}${t.errors ? ` (+${t.errors} errored)` : ''}` },
        ]}
      />
      {k && (
        <p className="muted small">
          Test accuracy is each item's first try; <PassK k={1} />, <PassK k={k} /> and the items whose tries disagree
          count all {k} tries of each item.
        </p>
      )}
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
