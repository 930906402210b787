'use client';
// Atlas' servers: every region's (or the one this address names), searched, filtered, sorted and
// paged; live.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { trpcErrorBody } from '../../toast';
import { useTRPC } from '../../trpc-provider';
import { EmptyState } from '../../ui/empty-state';
import { ErrorAlert } from '../../ui/error-alert';
import { LoadMore } from '../../ui/load-more';
import { SkeletonRows } from '../../ui/skeleton';
import { card } from '../../ui/styles';
import { ServerCards } from './server-cards';
import { isFiltered, NO_FILTER, ServerFilters, type ServerFilter } from './server-filters';
import { ServerTable } from './server-table';

const PAGE = 50;

export function ServerList() {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<ServerFilter>(NO_FILTER);
  const [search, setSearch] = useState('');
  // The search applies after a pause in typing, not on every key.
  useEffect(() => {
    const t = setTimeout(() => setFilter((f) => (f.q === search.trim() ? f : { ...f, q: search.trim() })), 300);
    return () => clearTimeout(t);
  }, [search]);

  const facets = useQuery(trpc.atlas.servers.facets.queryOptions({}, { staleTime: 60_000 }));
  const [sort, order] = filter.order.split(':') as ['hostname', 'asc'];
  const input = {
    limit: PAGE,
    sort,
    order,
    ...(filter.q ? { q: filter.q } : {}),
    ...(filter.region ? { region: filter.region } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.zone ? { zone: filter.zone } : {}),
    ...(filter.rack ? { rack: filter.rack } : {}),
    ...(filter.allocation ? { allocation: filter.allocation } : {}),
  };
  const servers = useInfiniteQuery(
    trpc.atlas.servers.list.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      placeholderData: keepPreviousData,
      refetchInterval: (q) =>
        q.state.data?.pages.some((p) => p.data.some((s) => s.status === 'provisioning')) ? 2_000 : 10_000,
    }),
  );
  const rows = servers.data?.pages.flatMap((p) => p.data) ?? [];
  const total = servers.data?.pages[0]?.total;
  const error = servers.error ? trpcErrorBody(servers.error) : null;
  const filtered = isFiltered(filter);

  return (
    <div className="space-y-4">
      <ServerFilters
        regions={facets.data?.regions ?? []}
        scopeRegion={facets.data?.scope_region ?? null}
        zones={facets.data?.zones ?? []}
        racks={facets.data?.racks ?? []}
        search={search}
        onSearch={setSearch}
        value={filter}
        onChange={setFilter}
      />

      {error && <ErrorAlert requestId={error.request_id}>Could not load servers: {error.message}</ErrorAlert>}

      <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite" data-testid="server-count">
        {total === undefined
          ? '\u00a0'
          : `${total} ${total === 1 ? 'server' : 'servers'}${filtered ? ' match' : ''}${
              rows.length < total ? ` · showing ${rows.length}` : ''
            }`}
      </p>

      <div className={`${card} ${servers.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}`}>
        {servers.isPending && !error ? (
          <SkeletonRows rows={8} label="Loading servers…" />
        ) : rows.length === 0 && !error ? (
          <EmptyState title={filtered ? 'No servers match' : 'No servers'}>
            {filtered
              ? 'Try another search, region, status, zone or rack.'
              : 'Servers appear here once a region’s hardware is racked.'}
          </EmptyState>
        ) : (
          <>
            <ServerTable servers={rows} className="hidden md:block" />
            <ServerCards servers={rows} className="md:hidden" />
          </>
        )}
      </div>

      <LoadMore query={servers} />
    </div>
  );
}
