// One region as a checkbox in a list of allowed regions: its code, its name, and a hint line under
// them that describes the checkbox (live clusters, keys, a region that is not active).
import type { ReactNode } from 'react';
import { fieldHint, focusRing } from './styles';

export function RegionCheckbox({
  id,
  code,
  label,
  hint,
  checked,
  onChange,
}: {
  id: string;
  code: string;
  label: string;
  hint: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/60"
    >
      <input
        id={id}
        type="checkbox"
        className={`mt-1 h-4 w-4 accent-cyan-700 ${focusRing}`}
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <span className="min-w-0">
        <span className="font-mono text-sm font-medium">{code}</span> <span className="text-sm">{label}</span>
        <span id={`${id}-hint`} className={`${fieldHint} block`}>
          {hint}
        </span>
      </span>
    </label>
  );
}
