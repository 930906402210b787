// The top of a page: where it sits (a breadcrumb or a small eyebrow line), its one h1, what it
// is for, and the page's own actions beside them. Anything else under the title goes in children.
import type { ReactNode } from 'react';
import { Breadcrumb } from './breadcrumb';

const EYEBROW_TONES = {
  arc: 'text-indigo-600 dark:text-indigo-400',
  atlas: 'text-cyan-700 dark:text-cyan-400',
} as const;

export function PageHeader({
  title,
  description,
  breadcrumb,
  eyebrow,
  tone = 'arc',
  actions,
  children,
  centered = false,
  className = '',
}: {
  title: ReactNode;
  description?: ReactNode;
  breadcrumb?: { up: { href: string; label: string }; current: string };
  eyebrow?: ReactNode;
  tone?: keyof typeof EYEBROW_TONES;
  actions?: ReactNode;
  children?: ReactNode;
  /** A page with nothing beside its title (sign-in, sign-out). */
  centered?: boolean;
  className?: string;
}) {
  return (
    <header className={`space-y-2 ${className}`}>
      {breadcrumb && <Breadcrumb {...breadcrumb} />}
      <div className={`flex flex-wrap items-end gap-4 ${centered ? 'justify-center text-center' : 'justify-between'}`}>
        <div className="min-w-0 space-y-1">
          {eyebrow && <p className={`text-sm font-medium ${EYEBROW_TONES[tone]}`}>{eyebrow}</p>}
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          {description && <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </header>
  );
}

/** A page title that is a name (monospace) with the thing's status beside it. */
export function NameAndStatus({ name, status, testId }: { name: string; status: ReactNode; testId: string }) {
  return (
    <span className="flex flex-wrap items-center gap-3">
      <span className="break-all font-mono">{name}</span>
      <span data-testid={testId}>{status}</span>
    </span>
  );
}
