// One notification: unread ones stand out (a coloured dot, bold title, "(unread)" for screen
// readers) and carry a "Mark read" button; cluster ones link to the cluster while it exists.
import Link from 'next/link';
import type { RouterOutputs } from '../../trpc-provider';
import { btnSecondarySm, link } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';

type Notification = RouterOutputs['notifications']['list']['data'][number];

const KIND_DOT: Record<string, string> = {
  'cluster.ready': 'bg-emerald-500',
  'cluster.failed': 'bg-rose-500',
  'cluster.deleted': 'bg-slate-400',
};

export function NotificationItem({
  notification: n,
  onMarkRead,
}: {
  notification: Notification;
  onMarkRead: () => void;
}) {
  return (
    <li
      data-testid="notification"
      data-read={n.read}
      className={`flex gap-3 px-4 py-3 ${n.read ? '' : 'bg-indigo-50/40 dark:bg-indigo-950/20'}`}
    >
      <span
        aria-hidden
        className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${n.read ? 'bg-transparent' : (KIND_DOT[n.kind] ?? 'bg-indigo-500')}`}
      />
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className={`text-sm ${n.read ? 'text-slate-700 dark:text-slate-300' : 'font-semibold'}`}>
          {n.title}
          {!n.read && <span className="sr-only"> (unread)</span>}
        </p>
        <p className="break-words text-sm text-slate-600 dark:text-slate-400">{n.body}</p>
        <p className="flex flex-wrap items-center gap-x-3 text-xs text-slate-500 dark:text-slate-400">
          <TimeAgo iso={n.created_at} />
          {n.resource_id?.startsWith('cls_') && n.kind !== 'cluster.deleted' && (
            <Link href={`/arc/clusters/${n.resource_id}`} className={link}>
              View cluster
            </Link>
          )}
        </p>
      </div>
      {!n.read && (
        <button type="button" onClick={onMarkRead} aria-label={`Mark read: ${n.title}`} className={btnSecondarySm}>
          Mark read
        </button>
      )}
    </li>
  );
}
