// A labelled text (or number, email, password) input: Field around the console's input style.
import type { InputHTMLAttributes } from 'react';
import { Field, type FieldProps } from './field';
import { input } from './styles';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'aria-describedby' | 'aria-invalid'>;

export function TextField({
  label,
  hint,
  error,
  compact,
  className,
  inputClassName = '',
  ...props
}: FieldProps & InputProps & { inputClassName?: string }) {
  return (
    <Field label={label} hint={hint} error={error} compact={compact} className={className}>
      {(control) => <input {...props} {...control} className={`${input} ${inputClassName}`} />}
    </Field>
  );
}
