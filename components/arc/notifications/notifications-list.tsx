'use client';
// Notifications: all or unread only, a page at a time; mark one read (optimistically) or all.
// Both go through server actions, then every notifications query (the nav badge's too) refreshes.
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { useState, useTransition } from 'react';
import { markAllNotificationsRead, markNotificationRead } from '~/server/api/actions/notifications';
import { errorToast, trpcErrorBody, useToast } from '../../toast';
import { useTRPC, type RouterOutputs } from '../../trpc-provider';
import { EmptyState } from '../../ui/empty-state';
import { ErrorAlert } from '../../ui/error-alert';
import { LoadMore } from '../../ui/load-more';
import { SkeletonRows } from '../../ui/skeleton';
import { btnSecondary, card } from '../../ui/styles';
import { NotificationItem } from './notification-item';
import { ReadFilter, type ReadFilterValue } from './read-filter';

type Page = RouterOutputs['notifications']['list'];

export function NotificationsList() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [filter, setFilter] = useState<ReadFilterValue>('all');
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
        <ReadFilter value={filter} unread={list.data ? unread : undefined} onChange={setFilter} />
        <button type="button" className={btnSecondary} disabled={pendingAll || unread === 0} onClick={markAll}>
          {pendingAll ? 'Marking…' : 'Mark all read'}
        </button>
      </div>

      {error && <ErrorAlert requestId={error.request_id}>Could not load notifications: {error.message}</ErrorAlert>}

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
              <NotificationItem key={n.id} notification={n} onMarkRead={() => void markRead(n.id)} />
            ))}
          </ul>
        )}
      </div>

      <LoadMore query={list} />
    </div>
  );
}
