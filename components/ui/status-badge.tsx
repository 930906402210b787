// A status pill with a coloured dot, for clusters (pending … deleted), workflow runs and their
// steps. In-progress states pulse (unless the user asked for reduced motion).
const TONES: Record<string, { dot: string; pill: string }> = {
  ready: {
    dot: 'bg-emerald-500',
    pill: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950/60 dark:text-emerald-300 dark:ring-emerald-400/30',
  },
  succeeded: {
    dot: 'bg-emerald-500',
    pill: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950/60 dark:text-emerald-300 dark:ring-emerald-400/30',
  },
  provisioning: {
    dot: 'bg-sky-500',
    pill: 'bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-950/60 dark:text-sky-300 dark:ring-sky-400/30',
  },
  running: {
    dot: 'bg-sky-500',
    pill: 'bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-950/60 dark:text-sky-300 dark:ring-sky-400/30',
  },
  pending: {
    dot: 'bg-slate-400',
    pill: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30',
  },
  queued: {
    dot: 'bg-slate-400',
    pill: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30',
  },
  deleting: {
    dot: 'bg-amber-500',
    pill: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950/60 dark:text-amber-300 dark:ring-amber-400/30',
  },
  failed: {
    dot: 'bg-rose-500',
    pill: 'bg-rose-50 text-rose-800 ring-rose-600/20 dark:bg-rose-950/60 dark:text-rose-300 dark:ring-rose-400/30',
  },
  deleted: {
    dot: 'bg-slate-300 dark:bg-slate-600',
    pill: 'bg-slate-50 text-slate-500 ring-slate-400/20 line-through dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-500/30',
  },
  cancelled: {
    dot: 'bg-slate-300 dark:bg-slate-600',
    pill: 'bg-slate-50 text-slate-500 ring-slate-400/20 dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-500/30',
  },
  skipped: {
    dot: 'bg-slate-300 dark:bg-slate-600',
    pill: 'bg-slate-50 text-slate-500 ring-slate-400/20 dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-500/30',
  },
};

/** States that change by themselves: pages poll while one is showing. */
export const IN_PROGRESS = new Set(['pending', 'provisioning', 'deleting', 'queued', 'running']);

const LABELS: Record<string, string> = {
  ready: 'Ready',
  succeeded: 'Succeeded',
  provisioning: 'Provisioning',
  running: 'Running',
  pending: 'Pending',
  queued: 'Queued',
  deleting: 'Deleting',
  failed: 'Failed',
  deleted: 'Deleted',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

export function StatusBadge({ status, className = '' }: { status: string; className?: string }) {
  const tone = TONES[status] ?? TONES.pending!;
  const animated = IN_PROGRESS.has(status) && status !== 'pending' && status !== 'queued';
  return (
    <span
      data-status={status}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tone.pill} ${className}`}
    >
      <span aria-hidden className="relative flex h-2 w-2">
        {animated && (
          <span
            className={`absolute inline-flex h-full w-full rounded-full opacity-75 motion-safe:animate-ping ${tone.dot}`}
          />
        )}
        <span className={`relative inline-flex h-2 w-2 rounded-full ${tone.dot}`} />
      </span>
      {statusLabel(status)}
    </span>
  );
}
