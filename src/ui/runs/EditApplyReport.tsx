import type { StepDetail } from '../../worker/api-types';
import { Card } from '../common/Field';

type Report = NonNullable<StepDetail['artifacts']['apply_report']>;

/** How each chosen edit applied: its op, its file in a package, its status and content. */
export function EditApplyReport({ report }: { report: Report }) {
  return (
    <Card title="Edit-apply report">
      <table className="table">
        <thead>
          <tr>
            <th>#</th>
            <th>Op</th>
            {/* A skill package's edits name their file (issue #23). */}
            {report.some((r) => r.file) && <th>File</th>}
            <th>Status</th>
            <th>Content</th>
          </tr>
        </thead>
        <tbody>
          {report.map((r) => (
            <tr key={r.index}>
              <td>{r.index}</td>
              <td>{r.op}</td>
              {report.some((x) => x.file) && (
                <td className="small">
                  <code>{r.file ?? 'SKILL.md'}</code>
                </td>
              )}
              <td>
                <span className={`badge ${r.status.startsWith('applied') ? 'pass' : 'fail'}`}>
                  {r.status.replace(/_/g, ' ')}
                </span>
              </td>
              <td className="small">{r.content_preview}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
