import type { ReactNode } from 'react';

/** One column of a DataTable: its header, how a row fills it, and whether it holds numbers (right-aligned). */
export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  num?: boolean;
}

/** The app's plain table of rows: the one markup every list of runs, steps, versions and scores uses. */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowClass,
  className = 'table',
}: {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  rowClass?: (row: T) => string | undefined;
  className?: string;
}) {
  return (
    <table className={className}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} className={c.num ? 'num' : undefined}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)} className={rowClass?.(r)}>
            {columns.map((c, i) => (
              <td key={i} className={c.num ? 'num' : undefined}>
                {c.cell(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
