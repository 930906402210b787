'use client';
// The directory's workspaces: slug, region, status and last change, live (polled), filterable
// by region, a page at a time.
import { useInfiniteQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '../trpc-provider';
import { DataTable } from '../ui/data-table';
import { ErrorAlert } from '../ui/error-alert';
import { LoadMore } from '../ui/load-more';
import { SkeletonRows } from '../ui/skeleton';
import { StatusBadge } from '../ui/status-badge';
import { TimeAgo } from '../ui/time-ago';
import { card, link } from '../ui/styles';

export function DirectoryWorkspaces() {
  const trpc = useTRPC();
  const [region, setRegion] = useState('');
  const list = useInfiniteQuery(
    trpc.atlas.directory.workspaces.infiniteQueryOptions(
      { limit: 50, ...(region ? { region } : {}) },
      { getNextPageParam: (last) => last.next_cursor ?? undefined, refetchInterval: 10_000 },
    ),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const regions = [...new Set(rows.map((w) => w.region))].sort();

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <label className="space-y-1 text-xs font-medium text-slate-600 dark:text-slate-400">
          <span className="block">Region</span>
          <select
            value={region}
            onChange={(e) => setRegion(e.target.value)}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          >
            <option value="">Every region</option>
            {(region && !regions.includes(region) ? [...regions, region] : regions).map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
      </div>
      {list.isError && <ErrorAlert>The directory could not be read: {list.error.message}</ErrorAlert>}
      {list.isPending && <SkeletonRows rows={3} label="Loading the directory…" />}
      {list.data && (
        <div className={card}>
          <DataTable
            caption="Workspaces in the directory, by slug"
            rows={rows}
            rowKey={(w) => w.slug}
            rowData={(w) => ({ 'data-testid': 'directory-row', 'data-slug': w.slug })}
            empty="No workspace has been registered yet: cells register theirs when they start."
            columns={[
              { header: 'Workspace', className: 'font-mono text-sm', cell: (w) => w.slug },
              {
                header: 'Region',
                cell: (w) => (
                  <span>
                    <span className="font-mono text-xs">{w.region}</span> {w.region_name}
                    {w.region_status !== 'active' && <StatusBadge status={w.region_status} className="ml-2" />}
                  </span>
                ),
              },
              {
                header: 'Status',
                cell: (w) => (
                  <span className="flex flex-wrap items-center gap-2">
                    <StatusBadge status={w.status} />
                    {w.offered_to && (
                      <Link href={`/atlas/moves?org=${w.slug}`} className={`${link} text-xs`}>
                        to {w.offered_to}
                      </Link>
                    )}
                  </span>
                ),
              },
              { header: 'Changes', className: 'font-mono text-xs', cell: (w) => String(w.sequence) },
              { header: 'Last change', cell: (w) => <TimeAgo iso={w.updated_at} /> },
            ]}
          />
        </div>
      )}
      <LoadMore query={list} />
    </div>
  );
}
