// The draft against the current version, field by field (from the store's preview): what a
// publish would change, shown before it is confirmed.
import { DataTable } from '../../ui/data-table';

export interface PolicyChange {
  path: string;
  before?: unknown;
  after?: unknown;
}

/** A field's value in words: lists joined, nothing as a dash. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '–';
  if (Array.isArray(v)) return v.length ? v.join(', ') : '(none)';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function PolicyDiff({ changes, caption }: { changes: PolicyChange[]; caption: string }) {
  return (
    <DataTable
      caption={caption}
      rows={changes}
      rowKey={(c) => c.path}
      rowData={(c) => ({ 'data-testid': 'diff-row', 'data-path': c.path })}
      empty="No changes against the current version."
      columns={[
        { header: 'Field', className: 'font-mono text-xs', cell: (c) => c.path },
        {
          header: 'Current',
          className: 'font-mono text-xs',
          cell: (c) => (
            <span className="text-rose-800 dark:text-rose-300">
              <span className="sr-only">was </span>
              {showValue(c.before)}
            </span>
          ),
        },
        {
          header: 'New',
          className: 'font-mono text-xs',
          cell: (c) => (
            <span className="font-semibold text-emerald-800 dark:text-emerald-300">
              <span className="sr-only">becomes </span>
              {showValue(c.after)}
            </span>
          ),
        },
      ]}
    />
  );
}
