'use client';
// The live region dashboard: every region's card, polled every 2 s (TanStack Query keeps the
// last answer on screen when a poll fails, and says so).
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc-provider';
import { ErrorAlert } from '../ui/error-alert';
import { SkeletonRows } from '../ui/skeleton';
import { LiveStamp } from './live-stamp';
import { RegionCard } from './region-card';
import { RegionStatusForm } from './region-status-form';

export const DASHBOARD_POLL_MS = 2_000;

export function RegionDashboard() {
  const trpc = useTRPC();
  const regions = useQuery(
    trpc.atlas.regions.list.queryOptions({}, { refetchInterval: DASHBOARD_POLL_MS, refetchIntervalInBackground: true }),
  );
  if (!regions.data) {
    if (regions.isError) return <ErrorAlert>Region health is not available right now; retrying every 2 s.</ErrorAlert>;
    return <SkeletonRows rows={3} label="Loading regions…" />;
  }
  return (
    <div className="space-y-3">
      <LiveStamp updatedAt={regions.dataUpdatedAt} failed={regions.isError} />
      <div className="grid gap-4 lg:grid-cols-2 2xl:grid-cols-3">
        {regions.data.data.map((r) => (
          <RegionCard key={r.code} region={r} detailHref={`/atlas/regions/${r.code}`}>
            <RegionStatusForm code={r.code} status={r.status} />
          </RegionCard>
        ))}
      </div>
    </div>
  );
}
