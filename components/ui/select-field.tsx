// A labelled <select>: Field around the console's input style; its children are the options.
import type { SelectHTMLAttributes } from 'react';
import { Field, type FieldProps } from './field';
import { input } from './styles';

type SelectProps = Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'id' | 'className' | 'aria-describedby' | 'aria-invalid'
>;

export function SelectField({
  label,
  hint,
  error,
  compact,
  className,
  selectClassName = '',
  children,
  ...props
}: FieldProps & SelectProps & { selectClassName?: string }) {
  return (
    <Field label={label} hint={hint} error={error} compact={compact} className={className}>
      {(control) => (
        <select {...props} {...control} className={`${input} ${selectClassName}`}>
          {children}
        </select>
      )}
    </Field>
  );
}
