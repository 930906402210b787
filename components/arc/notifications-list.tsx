'use client';
// Notifications: all or unread only, a page at a time; mark one read (optimistically) or all.
// Both go through server actions, then every notifications query (the nav badge's too) refreshes.
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, useTransition } from 'react';
import { markAllNotificationsRead, markNotificationRead } from '~/app/arc/notifications/actions';
import { fullDate, timeAgo } from '../format';
import { errorToast, trpcErrorBody, useToast } from '../toast';
import { useTRPC, type RouterOutputs } from '../trpc-provider';
import { EmptyState } from '../ui/empty-state';
import { SkeletonRows } from '../ui/skeleton';
import { btnSecondary, card, focusRing, link } from '../ui/styles';

type Filter = 'all' | 'unread';

type Page = RouterOutputs['notifications']['list'];

const KIND_DOT: Record<string, string> = {
  'cluster.ready': 'bg-emerald-500',
  'cluster.failed': 'bg-rose-500',
  'cluster.deleted': 'bg-slate-400',
};

export function NotificationsList() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [filter, setFilter] = useState<Filter>('all');
  const [pendingAll, startAll] = useTransition();
  const input = filter === 'unread' ? { unread: 'true' as const, limit: 20 } : { limit: 20 };
  const list = useInfiniteQuery(
    trpc.notifications.list.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      refetchInterval: 10_000,
    }),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const unread = list.data?.pages[0]?.unread_count ?? 0;

  const refreshAll = () => qc.invalidateQueries(trpc.notifications.list.pathFilter());

  /** Applies `change` to every cached notifications list (pages and the badge's count). */
  const patchCaches = (change: (p: Page) => Page) => {
    qc.setQueriesData<InfiniteData<Page> | Page>(trpc.notifications.list.pathFilter(), (old) => {
      if (!old) return old;
      if ('pages' in old) return { ...old, pages: old.pages.map(change) };
      return change(old);
    });
  };

  const markRead = async (id: string) => {
    await qc.cancelQueries(trpc.notifications.list.pathFilter());
    const snapshot = qc.getQueriesData(trpc.notifications.list.pathFilter());
    const now = new Date().toISOString();
    const wasUnread = rows.find((n) => n.id === id)?.read === false;
    patchCaches((p) => ({
      ...p,
      data: p.data.map((n) => (n.id === id ? { ...n, read: true, read_at: now } : n)),
      unread_count: wasUnread ? Math.max(0, p.unread_count - 1) : p.unread_count,
    }));
    const res = await markNotificationRead({ id });
    if (!res.ok) {
      for (const [key, data] of snapshot) qc.setQueryData(key, data);
      toast(errorToast('Could not mark it read', res.error));
    }
    await refreshAll();
  };

  const markAll = () =>
    startAll(async () => {
      const res = await markAllNotificationsRead({});
      if (!res.ok) {
        toast(errorToast('Could not mark everything read', res.error));
        return;
      }
      patchCaches((p) => ({
        ...p,
        data: p.data.map((n) => (n.read ? n : { ...n, read: true, read_at: new Date().toISOString() })),
        unread_count: res.data.unread_count,
      }));
      toast({
        kind: 'success',
        title: res.data.updated === 1 ? '1 notification marked read' : `${res.data.updated} notifications marked read`,
      });
      await refreshAll();
    });

  const error = list.error ? trpcErrorBody(list.error) : null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="group"
          aria-label="Show"
          className="inline-flex rounded-md border border-slate-300 p-0.5 dark:border-slate-700"
        >
          {(['all', 'unread'] as const).map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => setFilter(f)}
              className={`rounded px-3 py-1.5 text-sm font-medium ${focusRing} ${
                filter === f
                  ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900'
                  : 'text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
              }`}
            >
              {f === 'all' ? 'All' : `Unread${list.data ? ` (${unread})` : ''}`}
            </button>
          ))}
        </div>
        <button type="button" className={btnSecondary} disabled={pendingAll || unread === 0} onClick={markAll}>
          {pendingAll ? 'Marking…' : 'Mark all read'}
        </button>
      </div>

      {error && (
        <p
          role="alert"
          className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 dark:bg-rose-950 dark:text-rose-300"
        >
          Could not load notifications: {error.message}
          {error.request_id && <span className="ml-2 font-mono text-xs">({error.request_id})</span>}
        </p>
      )}

      <div className={card}>
        {list.isPending && !error ? (
          <SkeletonRows rows={5} label="Loading notifications…" />
        ) : rows.length === 0 && !error ? (
          <EmptyState title={filter === 'unread' ? 'You are all caught up' : 'No notifications yet'}>
            {filter === 'unread'
              ? 'Nothing unread. Switch to All to see earlier notifications.'
              : 'You will hear here when a cluster is ready, fails or is deleted.'}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Notifications">
            {rows.map((n) => (
              <li
                key={n.id}
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
                    <span title={fullDate(n.created_at)}>{timeAgo(n.created_at)}</span>
                    {n.resource_id?.startsWith('cls_') && n.kind !== 'cluster.deleted' && (
                      <Link href={`/arc/clusters/${n.resource_id}`} className={link}>
                        View cluster
                      </Link>
                    )}
                  </p>
                </div>
                {!n.read && (
                  <button
                    type="button"
                    onClick={() => void markRead(n.id)}
                    aria-label={`Mark read: ${n.title}`}
                    className={`h-fit shrink-0 rounded-md border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800 ${focusRing}`}
                  >
                    Mark read
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>

      {list.hasNextPage && (
        <div className="flex justify-center">
          <button
            type="button"
            className={btnSecondary}
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}
