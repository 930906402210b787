'use client';
// Workspace moves, newest first, live: each with its route, status, the step it is on, its
// read-only window and who started it. Polled every 2 s while a move is open, else every 10 s.
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '../../trpc-provider';
import { DataTable } from '../../ui/data-table';
import { ErrorAlert } from '../../ui/error-alert';
import { LoadMore } from '../../ui/load-more';
import { SkeletonRows } from '../../ui/skeleton';
import { StatusBadge } from '../../ui/status-badge';
import { card, link } from '../../ui/styles';
import { TimeAgo } from '../../ui/time-ago';
import { fmtSeconds } from '../format';

export const OPEN_MOVE = new Set(['pending', 'copying', 'cutover']);

export function MovesList({ org }: { org?: string }) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.atlas.moves.list.infiniteQueryOptions(
      { limit: 20, ...(org ? { org } : {}) },
      {
        getNextPageParam: (last) => last.next_cursor ?? undefined,
        refetchInterval: (q) =>
          q.state.data?.pages.some((p) => p.data.some((m) => OPEN_MOVE.has(m.status))) ? 2_000 : 10_000,
      },
    ),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <section aria-labelledby="moves-title" className="space-y-3">
      <h2 id="moves-title" className="text-base font-semibold">
        Moves
      </h2>
      {list.isError && <ErrorAlert>The moves could not be read: {list.error.message}</ErrorAlert>}
      {list.isPending && <SkeletonRows rows={3} label="Loading moves…" />}
      {list.data && (
        <div className={card}>
          <DataTable
            caption="Workspace moves, newest first"
            rows={rows}
            rowKey={(m) => m.id}
            rowData={(m) => ({ 'data-testid': 'move-row', 'data-move': m.id, 'data-status': m.status })}
            empty="No workspace has moved yet."
            columns={[
              {
                header: 'Move',
                cell: (m) => (
                  <Link href={`/atlas/moves/${m.id}`} className={`${link} font-mono text-xs`}>
                    {m.id}
                  </Link>
                ),
              },
              { header: 'Workspace', className: 'font-mono text-sm', cell: (m) => m.slug },
              {
                header: 'Route',
                className: 'font-mono text-xs',
                cell: (m) => (
                  <span>
                    {m.from_region} <span aria-label="to">→</span> {m.to_region}
                  </span>
                ),
              },
              {
                header: 'Status',
                cell: (m) => (
                  <span className="flex flex-wrap items-center gap-2">
                    <StatusBadge status={m.status} />
                    {OPEN_MOVE.has(m.status) && m.step && <span className="text-xs text-slate-500">{m.step}</span>}
                  </span>
                ),
              },
              {
                header: 'Read-only',
                cell: (m) =>
                  m.read_only.seconds !== null ? fmtSeconds(m.read_only.seconds) : m.read_only.started_at ? 'now' : '–',
              },
              { header: 'Started by', className: 'text-xs', cell: (m) => m.started_by?.email ?? '–' },
              { header: 'Started', cell: (m) => <TimeAgo iso={m.created_at} /> },
            ]}
          />
        </div>
      )}
      <LoadMore query={list} />
    </section>
  );
}
