// A small label beside a name: "default", "GPU", "attempt 2", or a role as a pill.
import type { ReactNode } from 'react';

const TONES = {
  indigo:
    'bg-indigo-50 text-indigo-700 ring-indigo-600/20 dark:bg-indigo-950 dark:text-indigo-300 dark:ring-indigo-400/30',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30',
  violet:
    'bg-violet-100 text-violet-800 ring-violet-600/20 dark:bg-violet-950 dark:text-violet-300 dark:ring-violet-400/30',
  amber: 'bg-amber-100 text-amber-800 ring-amber-600/20 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-400/30',
} as const;

export function Tag({
  tone = 'slate',
  pill = false,
  children,
}: {
  tone?: keyof typeof TONES;
  /** Rounded and ringed: a state of the thing (its role, "Current") rather than a note on it. */
  pill?: boolean;
  children: ReactNode;
}) {
  const shape = pill ? 'rounded-full px-2 ring-1 ring-inset' : 'rounded px-1.5';
  return <span className={`whitespace-nowrap py-0.5 text-xs font-medium ${shape} ${TONES[tone]}`}>{children}</span>;
}
