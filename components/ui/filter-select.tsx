// A toolbar filter: a compact <select> of values, first "any" (the empty value) when there is one.
import type { ReactNode } from 'react';
import { SelectField } from './select-field';

export function FilterSelect<T extends string>({
  label,
  value,
  onChange,
  options,
  optionLabel = (v) => v,
  any,
  className,
}: {
  label: string;
  value: T | '';
  onChange: (value: T | '') => void;
  options: readonly T[];
  /** How an option reads (its value, unless said otherwise). */
  optionLabel?: (value: T) => ReactNode;
  /** The empty value's text ("Any status"); none, when a value is always chosen. */
  any?: ReactNode;
  className?: string;
}) {
  return (
    <SelectField
      label={label}
      compact
      className={className}
      value={value}
      onChange={(e) => onChange(e.target.value as T | '')}
    >
      {any !== undefined && <option value="">{any}</option>}
      {options.map((o) => (
        <option key={o} value={o}>
          {optionLabel(o)}
        </option>
      ))}
    </SelectField>
  );
}
