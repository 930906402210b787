'use client';
// The organization's clusters, over every region (fan-out) or one, filtered and paged; refreshes
// every 2 s while any cluster is changing state. A table on wide screens, cards on phones.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { IN_PROGRESS_STATUSES } from '~/lib/cluster-status';
import { trpcErrorBody } from '../../toast';
import { useTRPC } from '../../trpc-provider';
import { EmptyState } from '../../ui/empty-state';
import { ErrorAlert } from '../../ui/error-alert';
import { LoadMore } from '../../ui/load-more';
import { SkeletonRows } from '../../ui/skeleton';
import { btnPrimary, card, noticeWarning } from '../../ui/styles';
import { ClusterCardList } from './cluster-card-list';
import { ClusterFilters, isFiltered, NO_FILTER, type ClusterFilter } from './cluster-filters';
import { ClusterTable } from './cluster-table';
import { RegionStatusChips } from './region-status-chips';

const PAGE = 20;

export function ClustersList({ regions, impliedRegion }: { regions: string[]; impliedRegion?: string }) {
  const trpc = useTRPC();
  const [filter, setFilter] = useState<ClusterFilter>(NO_FILTER);

  const projects = useQuery(trpc.projects.list.queryOptions({ limit: 200 }));
  const projectNames = useMemo(() => new Map((projects.data?.data ?? []).map((p) => [p.id, p.name])), [projects.data]);
  const projectName = (id: string) => projectNames.get(id);

  const input = {
    limit: PAGE,
    ...(filter.region ? { region: filter.region } : {}),
    ...(filter.projectId ? { project_id: filter.projectId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  };
  const clusters = useInfiniteQuery(
    trpc.compute.clusters.list.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      refetchInterval: (q) =>
        q.state.data?.pages.some((p) => p.data.some((c) => IN_PROGRESS_STATUSES.has(c.status))) ? 2_000 : false,
    }),
  );
  const rows = clusters.data?.pages.flatMap((p) => p.data) ?? [];
  const regionStatus = clusters.data?.pages[0]?.regions;
  const failedRegions = Object.entries(regionStatus ?? {})
    .filter(([, s]) => s.status === 'error')
    .map(([code]) => code);
  const filtered = isFiltered(filter);
  const error = clusters.error ? trpcErrorBody(clusters.error) : null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <ClusterFilters
          regions={regions}
          impliedRegion={impliedRegion}
          projects={projects.data?.data ?? []}
          value={filter}
          onChange={setFilter}
        />
        {regionStatus && <RegionStatusChips regions={regionStatus} />}
      </div>

      {failedRegions.length > 0 && (
        <div role="status" data-testid="degraded-banner" className={noticeWarning}>
          <strong className="font-semibold">Some regions did not answer:</strong> {failedRegions.join(', ')}. Their
          clusters are missing from this list; it refreshes by itself.
        </div>
      )}

      {error && <ErrorAlert requestId={error.request_id}>Could not load clusters: {error.message}</ErrorAlert>}

      <div className={card}>
        {clusters.isPending && !error ? (
          <SkeletonRows rows={6} label="Loading clusters…" />
        ) : rows.length === 0 && !error ? (
          <EmptyState
            title={filtered ? 'No clusters match these filters' : 'No clusters yet'}
            action={
              filtered ? undefined : (
                <Link href="/arc/clusters/new" className={btnPrimary}>
                  Create a cluster
                </Link>
              )
            }
          >
            {filtered
              ? 'Try another region, project or status.'
              : 'A cluster is a managed Kubernetes control plane and its nodes, in one of your regions.'}
          </EmptyState>
        ) : (
          <>
            <ClusterTable clusters={rows} projectName={projectName} className="hidden md:block" />
            <ClusterCardList clusters={rows} projectName={projectName} className="md:hidden" />
          </>
        )}
      </div>

      <LoadMore query={clusters} />
    </div>
  );
}
