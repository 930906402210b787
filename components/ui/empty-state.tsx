// What a list shows when it has nothing: what the thing is, and what to do next.
import type { ReactNode } from 'react';

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 px-6 py-12 text-center">
      <svg
        aria-hidden
        viewBox="0 0 24 24"
        className="h-10 w-10 fill-none stroke-slate-300 stroke-[1.5] dark:stroke-slate-600"
      >
        <rect x="3" y="4" width="18" height="16" rx="2" />
        <path d="M3 9h18M8 14h8" />
      </svg>
      <p className="font-medium">{title}</p>
      {children && <div className="max-w-md text-sm text-slate-600 dark:text-slate-400">{children}</div>}
      {action && <div className="pt-2">{action}</div>}
    </div>
  );
}
