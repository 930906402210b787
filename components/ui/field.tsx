// A form control with its label above and a hint or error line below. The label names the
// control, the line describes it (aria-describedby), and an error marks it invalid (aria-invalid).
import { useId, type ReactNode } from 'react';
import { fieldError, fieldHint, fieldLabel, fieldLabelCompact } from './styles';

/** What Field hands its control so the label and the line below belong to it. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export interface FieldProps {
  label: ReactNode;
  /** Shown under the control until there is an error. */
  hint?: ReactNode;
  /** Replaces the hint and marks the control invalid. */
  error?: string | null;
  /** A toolbar filter: a smaller, quieter label. */
  compact?: boolean;
  /** The wrapper's classes (its width in a row of fields). */
  className?: string;
}

export function Field({
  label,
  hint,
  error,
  compact = false,
  className = '',
  children,
}: FieldProps & { children: (control: FieldControlProps) => ReactNode }) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error || hint;
  return (
    <div className={`space-y-1 ${className}`}>
      <label htmlFor={id} className={compact ? fieldLabelCompact : fieldLabel}>
        {label}
      </label>
      {children({ id, 'aria-describedby': note ? noteId : undefined, 'aria-invalid': error ? true : undefined })}
      {note && (
        <span id={noteId} className={error ? fieldError : fieldHint}>
          {note}
        </span>
      )}
    </div>
  );
}
