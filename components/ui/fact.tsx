// One labelled value in a <dl> of facts (a cluster's region, an organization's slug).
import type { ReactNode } from 'react';

export function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd data-testid={testId} className="text-sm">
        {children}
      </dd>
    </div>
  );
}
