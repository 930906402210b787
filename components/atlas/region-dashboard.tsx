'use client';
// The live region dashboard: every region's card, polled every 2 s (TanStack Query keeps the
// last answer on screen when a poll fails, and says so).
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc-provider';
import { ErrorAlert } from '../ui/error-alert';
import { SkeletonRows } from '../ui/skeleton';
import { noticeWarning } from '../ui/styles';
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
  const updated = new Date(regions.dataUpdatedAt).toISOString().slice(11, 19);
  return (
    <div className="space-y-3">
      <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="off">
        Live: updated {updated} UTC, every 2 s
      </p>
      {regions.isError && (
        <p role="status" className={noticeWarning}>
          The last update failed; showing the state as of {updated} UTC.
        </p>
      )}
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
