// A status pill with a coloured dot, for clusters (pending … deleted), workflow runs and their
// steps, and servers. In-progress states pulse (unless the user asked for reduced motion).
import { IN_PROGRESS_STATUSES } from '~/lib/cluster-status';

const EMERALD = {
  dot: 'bg-emerald-500',
  pill: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950/60 dark:text-emerald-300 dark:ring-emerald-400/30',
};
const SKY = {
  dot: 'bg-sky-500',
  pill: 'bg-sky-50 text-sky-800 ring-sky-600/20 dark:bg-sky-950/60 dark:text-sky-300 dark:ring-sky-400/30',
};
const SLATE = {
  dot: 'bg-slate-400',
  pill: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30',
};
const FADED = {
  dot: 'bg-slate-300 dark:bg-slate-600',
  pill: 'bg-slate-50 text-slate-500 ring-slate-400/20 dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-500/30',
};

const TONES: Record<string, { dot: string; pill: string }> = {
  ready: EMERALD,
  succeeded: EMERALD,
  provisioning: SKY,
  running: SKY,
  pending: SLATE,
  queued: SLATE,
  deleting: {
    dot: 'bg-amber-500',
    pill: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950/60 dark:text-amber-300 dark:ring-amber-400/30',
  },
  failed: {
    dot: 'bg-rose-500',
    pill: 'bg-rose-50 text-rose-800 ring-rose-600/20 dark:bg-rose-950/60 dark:text-rose-300 dark:ring-rose-400/30',
  },
  // A deleted cluster is struck through: it is gone, not merely finished.
  deleted: { ...FADED, pill: `${FADED.pill} line-through` },
  cancelled: FADED,
  skipped: FADED,
  // Servers (Atlas): free, in a cluster, waiting for hands, unreachable.
  available: EMERALD,
  allocated: {
    dot: 'bg-indigo-500',
    pill: 'bg-indigo-50 text-indigo-800 ring-indigo-600/20 dark:bg-indigo-950/60 dark:text-indigo-300 dark:ring-indigo-400/30',
  },
  maintenance: {
    dot: 'bg-amber-500',
    pill: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950/60 dark:text-amber-300 dark:ring-amber-400/30',
  },
  offline: SLATE,
  // Workspace moves (Atlas) and the directory.
  copying: SKY,
  cutover: SKY,
  completed: EMERALD,
  active: EMERALD,
  moving: {
    dot: 'bg-amber-500',
    pill: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950/60 dark:text-amber-300 dark:ring-amber-400/30',
  },
  // Gateways' routing policy (Atlas → Policy): applied the newest version, behind, no heartbeat.
  synced: EMERALD,
  stale: {
    dot: 'bg-amber-500',
    pill: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-950/60 dark:text-amber-300 dark:ring-amber-400/30',
  },
  gone: FADED,
};

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
  available: 'Available',
  allocated: 'Allocated',
  maintenance: 'Maintenance',
  offline: 'Offline',
  copying: 'Copying',
  cutover: 'Cutover',
  completed: 'Completed',
  active: 'Active',
  moving: 'Moving',
  synced: 'Synced',
  stale: 'Stale',
  gone: 'Gone',
};

export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

export function StatusBadge({ status, className = '' }: { status: string; className?: string }) {
  const tone = TONES[status] ?? SLATE;
  // Waiting states (pending, queued) hold still: only work under way pulses.
  const animated = IN_PROGRESS_STATUSES.has(status) && status !== 'pending' && status !== 'queued';
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
