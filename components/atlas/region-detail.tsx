'use client';
// One region's page, live: its card, capacity, clusters by status, and lag and traffic history.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc-provider';
import { ErrorAlert } from '../ui/error-alert';
import { SkeletonRows } from '../ui/skeleton';
import { CardSection } from '../ui/card-section';
import { CapacityCharts } from './capacity-chart';
import { ClusterCounts } from './cluster-counts';
import { DASHBOARD_POLL_MS } from './region-dashboard';
import { LagHistory } from './lag-history';
import { LiveStamp } from './live-stamp';
import { RegionCard } from './region-card';
import { RegionStatusForm } from './region-status-form';

export function RegionDetail({ code }: { code: string }) {
  const trpc = useTRPC();
  const region = useQuery(
    trpc.atlas.regions.get.queryOptions(
      { code },
      { refetchInterval: DASHBOARD_POLL_MS, refetchIntervalInBackground: true },
    ),
  );
  const r = region.data;
  if (!r) {
    if (region.isError)
      return (
        <ErrorAlert>
          {code} is not available right now: {region.error.message}
        </ErrorAlert>
      );
    return <SkeletonRows rows={4} label={`Loading ${code}…`} />;
  }
  return (
    <div className="space-y-6">
      <LiveStamp updatedAt={region.dataUpdatedAt} failed={region.isError} />
      <div className="grid items-start gap-6 xl:grid-cols-2">
        <RegionCard region={r}>
          <RegionStatusForm code={r.code} status={r.status} />
        </RegionCard>
        <CardSection id="clusters-heading" title={`Clusters in ${r.code}`}>
          {r.clusters ? (
            <ClusterCounts counts={r.clusters} filter={`region=${r.code}`} label={`Clusters in ${r.code} by status`} />
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-300">Not known right now: {r.counts_error}</p>
          )}
        </CardSection>
      </div>
      <CardSection id="capacity-heading" title="Capacity">
        {r.capacity ? (
          <CapacityCharts capacity={r.capacity} />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">Not known right now: {r.counts_error}</p>
        )}
      </CardSection>
      <LagHistory region={r.code} />
    </div>
  );
}
