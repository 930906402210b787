'use client';
// The organization's clusters: across every region (fan-out, with each region's status and
// latency) or one, filtered by project and status, a page at a time. While any cluster is
// changing state the list refreshes itself every 2 s. A table on wide screens, cards on phones.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useMemo, useState } from 'react';
import { fullDate, timeAgo } from '../format';
import { trpcErrorBody } from '../toast';
import { useTRPC } from '../trpc-provider';
import { CopyButton } from '../ui/copy-button';
import { EmptyState } from '../ui/empty-state';
import { SkeletonRows } from '../ui/skeleton';
import { IN_PROGRESS, StatusBadge, statusLabel } from '../ui/status-badge';
import { btnPrimary, btnSecondary, card, input, link } from '../ui/styles';
import { RegionOptions } from '../ui/region-options';

const STATUSES = ['pending', 'provisioning', 'ready', 'failed', 'deleting'] as const;
type Status = (typeof STATUSES)[number];
const PAGE = 20;

export function ClustersList({ regions }: { regions: string[] }) {
  const trpc = useTRPC();
  const uid = useId();
  const fid = (field: string) => `${uid}-${field}`;
  const [region, setRegion] = useState('');
  const [projectId, setProjectId] = useState('');
  const [status, setStatus] = useState<Status | ''>('');
  const multiRegion = regions.length > 1;

  const projects = useQuery(trpc.projects.list.queryOptions({ limit: 200 }));
  const projectName = useMemo(() => new Map((projects.data?.data ?? []).map((p) => [p.id, p.name])), [projects.data]);

  const filter = {
    limit: PAGE,
    ...(region ? { region } : {}),
    ...(projectId ? { project_id: projectId } : {}),
    ...(status ? { status } : {}),
  };
  const clusters = useInfiniteQuery(
    trpc.compute.clusters.list.infiniteQueryOptions(filter, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      refetchInterval: (q) =>
        q.state.data?.pages.some((p) => p.data.some((c) => IN_PROGRESS.has(c.status))) ? 2_000 : false,
    }),
  );
  const rows = clusters.data?.pages.flatMap((p) => p.data) ?? [];
  const regionStatus = clusters.data?.pages[0]?.regions;
  const failedRegions = regionStatus
    ? Object.entries(regionStatus)
        .filter(([, s]) => s.status === 'error')
        .map(([code]) => code)
    : [];
  const filtered = region !== '' || projectId !== '' || status !== '';
  const error = clusters.error ? trpcErrorBody(clusters.error) : null;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        {multiRegion && (
          <div className="w-full space-y-1 sm:w-40">
            <label htmlFor={fid('region')} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
              Region
            </label>
            <select id={fid('region')} value={region} onChange={(e) => setRegion(e.target.value)} className={input}>
              <option value="">All regions</option>
              <RegionOptions regions={regions} />
            </select>
          </div>
        )}
        <div className="w-full space-y-1 sm:w-48">
          <label htmlFor={fid('project')} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Project
          </label>
          <select
            id={fid('project')}
            value={projectId}
            onChange={(e) => setProjectId(e.target.value)}
            className={input}
          >
            <option value="">All projects</option>
            {projects.data?.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="w-full space-y-1 sm:w-40">
          <label htmlFor={fid('status')} className="block text-xs font-medium text-slate-600 dark:text-slate-400">
            Status
          </label>
          <select
            id={fid('status')}
            value={status}
            onChange={(e) => setStatus(e.target.value as Status | '')}
            className={input}
          >
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            className={btnSecondary}
            onClick={() => {
              setRegion('');
              setProjectId('');
              setStatus('');
            }}
          >
            Clear filters
          </button>
        )}
        {regionStatus && (
          <ul aria-label="Region status" className="flex flex-wrap gap-2 sm:ml-auto">
            {Object.entries(regionStatus).map(([code, s]) => (
              <li
                key={code}
                data-testid={`region-chip-${code}`}
                title={s.status === 'ok' ? `${code} answered in ${s.latency_ms} ms` : `${code} did not answer`}
                className={`inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 font-mono text-xs ${
                  s.status === 'ok'
                    ? 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/50 dark:text-emerald-300'
                    : 'border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-900 dark:bg-rose-950/50 dark:text-rose-300'
                }`}
              >
                <span
                  aria-hidden
                  className={`h-1.5 w-1.5 rounded-full ${s.status === 'ok' ? 'bg-emerald-500' : 'bg-rose-500'}`}
                />
                {code}
                <span className="text-[11px] opacity-75">
                  {s.status === 'ok' ? `${Math.round(s.latency_ms)} ms` : 'error'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>

      {failedRegions.length > 0 && (
        <div
          role="status"
          data-testid="degraded-banner"
          className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200"
        >
          <strong className="font-semibold">Some regions did not answer:</strong> {failedRegions.join(', ')}. Their
          clusters are missing from this list; it refreshes by itself.
        </div>
      )}

      {error && (
        <p
          role="alert"
          className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-700 dark:bg-rose-950 dark:text-rose-300"
        >
          Could not load clusters: {error.message}
          {error.request_id && <span className="ml-2 font-mono text-xs">({error.request_id})</span>}
        </p>
      )}

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
            {/* Wide screens: a table. */}
            <div className="hidden overflow-x-auto md:block">
              <table className="w-full whitespace-nowrap text-left text-sm">
                <caption className="sr-only">Clusters</caption>
                <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800 dark:text-slate-400">
                  <tr>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      Name
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      ID
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      Region
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      Project
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      Template
                    </th>
                    <th scope="col" className="px-3 py-2.5 text-right font-medium">
                      Nodes
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      Status
                    </th>
                    <th scope="col" className="px-3 py-2.5 font-medium">
                      Created
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((c) => (
                    <tr
                      key={c.id}
                      data-region={c.region}
                      className="border-b border-slate-100 last:border-0 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/40"
                    >
                      <td className="px-3 py-2.5 font-medium">
                        <Link href={`/arc/clusters/${c.id}`} className={link}>
                          {c.name}
                        </Link>
                      </td>
                      <td className="px-3 py-2.5">
                        <span className="flex items-center gap-1.5">
                          <code
                            className="block max-w-24 truncate font-mono text-xs text-slate-500 dark:text-slate-400"
                            title={c.id}
                          >
                            {c.id}
                          </code>
                          <CopyButton value={c.id} label={`Copy ID of ${c.name}`} compact />
                        </span>
                      </td>
                      <td className="px-3 py-2.5 font-mono text-xs">{c.region}</td>
                      <td className="px-3 py-2.5">{projectName.get(c.project_id) ?? '—'}</td>
                      <td className="px-3 py-2.5 font-mono text-xs">{c.template}</td>
                      <td className="px-3 py-2.5 text-right tabular-nums">{c.node_count}</td>
                      <td className="px-3 py-2.5">
                        <StatusBadge status={c.status} />
                      </td>
                      <td
                        className="whitespace-nowrap px-3 py-2.5 text-xs text-slate-500 dark:text-slate-400"
                        title={fullDate(c.created_at)}
                      >
                        {timeAgo(c.created_at)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {/* Phones: one card per cluster. */}
            <ul className="divide-y divide-slate-100 md:hidden dark:divide-slate-800" aria-label="Clusters">
              {rows.map((c) => (
                <li key={c.id} data-testid="cluster-card" data-region={c.region} className="space-y-1.5 px-4 py-3">
                  <div className="flex items-start justify-between gap-3">
                    <Link href={`/arc/clusters/${c.id}`} className={`${link} truncate text-base`}>
                      {c.name}
                    </Link>
                    <StatusBadge status={c.status} />
                  </div>
                  <p className="flex flex-wrap gap-x-1.5 text-xs text-slate-600 dark:text-slate-300">
                    <span className="font-mono">{c.region}</span>
                    <span aria-hidden>·</span>
                    <span>{projectName.get(c.project_id) ?? '—'}</span>
                    <span aria-hidden>·</span>
                    <span className="font-mono">{c.template}</span>
                    <span aria-hidden>·</span>
                    <span>
                      {c.node_count} {c.node_count === 1 ? 'node' : 'nodes'}
                    </span>
                  </p>
                  <div className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
                    <code className="min-w-0 truncate font-mono">{c.id}</code>
                    <CopyButton value={c.id} label={`Copy ID of ${c.name}`} compact />
                    <span className="ml-auto shrink-0 pl-2" title={fullDate(c.created_at)}>
                      {timeAgo(c.created_at)}
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      {clusters.hasNextPage && (
        <div className="flex justify-center">
          <button
            type="button"
            className={btnSecondary}
            disabled={clusters.isFetchingNextPage}
            onClick={() => void clusters.fetchNextPage()}
          >
            {clusters.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        </div>
      )}
    </div>
  );
}
