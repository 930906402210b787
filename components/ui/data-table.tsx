// The console's table: a caption for screen readers, column headers, hover rows, and a line of
// its own when there is nothing to show. Columns say what each cell shows.
import type { ReactNode } from 'react';

export interface Column<T> {
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Classes for this column's cells (not its header). */
  className?: string;
  /** Numbers and actions line up on the right, header included. */
  align?: 'right';
}

/** data-* attributes a row carries (tests and styles find rows by them). */
export type RowData = Record<`data-${string}`, string | undefined>;

export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowData,
  empty,
  nowrap = false,
  className = '',
}: {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowData?: (row: T) => RowData;
  /** What the table says, in a full-width row, while it has no rows. */
  empty?: ReactNode;
  nowrap?: boolean;
  className?: string;
}) {
  const align = (c: Column<T>) => (c.align === 'right' ? 'text-right' : '');
  return (
    // Focusable, and named by the caption, so keyboard users can scroll a table wider than the screen.
    // relative: screen-reader-only text (absolutely positioned) scrolls and clips with the table.
    <div
      className={`relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-500 ${className}`}
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table className={`w-full text-left text-sm ${nowrap ? 'whitespace-nowrap' : ''}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:text-slate-400">
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col" className={`px-3 py-2.5 font-medium ${align(c)}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length} className="px-3 py-6 text-center text-slate-500 dark:text-slate-400">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr
                key={rowKey(row)}
                {...rowData?.(row)}
                className="border-b border-slate-100 last:border-0 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/40"
              >
                {columns.map((c, i) => (
                  <td key={i} className={`px-3 py-2.5 ${align(c)} ${c.className ?? ''}`}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
