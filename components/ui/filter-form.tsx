// A row of filters applied together: the fields, then "apply" and "Clear" (back to no filter).
import type { ReactNode } from 'react';
import { btnSecondary } from './styles';

export function FilterForm({
  label,
  search = false,
  submitLabel = 'Apply filters',
  onApply,
  onClear,
  children,
}: {
  label: string;
  /** A search landmark (role="search") rather than a plain form. */
  search?: boolean;
  submitLabel?: string;
  onApply: () => void;
  onClear: () => void;
  children: ReactNode;
}) {
  return (
    <form
      role={search ? 'search' : undefined}
      aria-label={label}
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      {children}
      <button type="submit" className={btnSecondary}>
        {submitLabel}
      </button>
      <button type="button" className={btnSecondary} onClick={onClear}>
        Clear
      </button>
    </form>
  );
}
