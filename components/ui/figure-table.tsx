// A small table of figures (a region's traffic, its capacity): named rows, one column a figure,
// a caption for screen readers. Plainer than DataTable: it sits inside a card beside a chart.
import type { ReactNode } from 'react';

export interface FigureColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The cell's data-testid and classes (a figure tests read, or one to stand out). */
  testId?: string;
  className?: string;
}

export function FigureTable<T>({
  caption,
  rowHeader,
  rows,
  rowTestId,
  columns,
  className = 'text-sm',
  testId,
}: {
  caption: ReactNode;
  /** The first column's header; each row's name is its row header. */
  rowHeader: string;
  rows: readonly (readonly [string, T])[];
  rowTestId: (name: string) => string;
  columns: FigureColumn<T>[];
  /** The table's text size. */
  className?: string;
  testId?: string;
}) {
  return (
    <table className={`w-full text-left ${className} tabular-nums`} data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead className="text-xs text-slate-500 dark:text-slate-400">
        <tr>
          {[rowHeader, ...columns.map((c) => c.header)].map((h) => (
            <th key={h} scope="col" className="font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([name, row]) => (
          <tr key={name} data-testid={rowTestId(name)}>
            <th scope="row" className="font-medium">
              {name}
            </th>
            {columns.map((c) => (
              <td key={c.header} data-testid={c.testId} className={c.className}>
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
