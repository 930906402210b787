// All or unread only: two toggle buttons (aria-pressed) in one group.
import { focusRing } from '../../ui/styles';

export type ReadFilterValue = 'all' | 'unread';

export function ReadFilter({
  value,
  unread,
  onChange,
}: {
  value: ReadFilterValue;
  /** The unread count, once known. */
  unread: number | undefined;
  onChange: (next: ReadFilterValue) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Show"
      className="inline-flex rounded-md border border-slate-300 p-0.5 dark:border-slate-700"
    >
      {(['all', 'unread'] as const).map((f) => (
        <button
          key={f}
          type="button"
          aria-pressed={value === f}
          onClick={() => onChange(f)}
          className={`rounded px-3 py-1.5 text-sm font-medium ${focusRing} ${
            value === f
              ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900'
              : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          }`}
        >
          {f === 'all' ? 'All' : `Unread${unread !== undefined ? ` (${unread})` : ''}`}
        </button>
      ))}
    </div>
  );
}
