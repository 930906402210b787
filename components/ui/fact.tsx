// One labelled value in a <dl> of facts (a cluster's region, an organization's slug).
import type { ReactNode } from 'react';

const LOOKS = { mono: 'font-mono', numeric: 'tabular-nums' } as const;

export function Fact({
  label,
  children,
  testId,
  look,
}: {
  /** Text, or text with a screen-reader-only tail (`sr-only`) that a narrow card has no room for. */
  label: ReactNode;
  children: ReactNode;
  testId?: string;
  /** An identifier (monospace) or a number (aligned digits). */
  look?: keyof typeof LOOKS;
}) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="text-sm">
        {look ? <span className={LOOKS[look]}>{children}</span> : children}
      </dd>
    </div>
  );
}
