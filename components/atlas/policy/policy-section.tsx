// One part of the policy form: a fieldset with its legend and, optionally, a line saying what it is for.
import type { ReactNode } from 'react';
import { sectionText } from '../../ui/styles';

export function PolicySection({ title, children, hint }: { title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold">{title}</legend>
      {hint && <p className={sectionText}>{hint}</p>}
      {children}
    </fieldset>
  );
}
