import { useState, type ReactNode } from 'react';

/**
 * A table that renders only the rows in view: fixed row height, a scrolling body, spacer rows
 * above and below. Enough for previews of tens of thousands of rows.
 */
export function VirtualTable<T>({
  rows,
  columns,
  rowHeight = 34,
  height = 360,
  label,
  rowKey,
}: {
  rows: readonly T[];
  columns: { title: string; width?: string; cell: (row: T) => ReactNode }[];
  rowHeight?: number;
  height?: number;
  label: string;
  rowKey: (row: T, index: number) => string;
}) {
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / rowHeight) - 5);
  const count = Math.ceil(height / rowHeight) + 10;
  const visible = rows.slice(first, first + count);
  const after = Math.max(0, rows.length - first - visible.length);
  return (
    <div
      className="vtable"
      style={{ maxHeight: height }}
      onScroll={(e) => setTop(e.currentTarget.scrollTop)}
      tabIndex={0}
      aria-label={label}
      role="region"
    >
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.title} style={{ width: c.width }}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 && <tr style={{ height: first * rowHeight }} aria-hidden="true" />}
          {visible.map((r, i) => (
            <tr key={rowKey(r, first + i)} style={{ height: rowHeight }}>
              {columns.map((c) => (
                <td key={c.title}>{c.cell(r)}</td>
              ))}
            </tr>
          ))}
          {after > 0 && <tr style={{ height: after * rowHeight }} aria-hidden="true" />}
        </tbody>
      </table>
    </div>
  );
}
