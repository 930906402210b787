'use client';
// Clusters across every organization, for operators: filters kept in the address, so a link from
// a region's or an organization's page lands on its clusters.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { CLUSTER_STATUSES, IN_PROGRESS_STATUSES } from '~/lib/cluster-status';
import { trpcErrorBody } from '../toast';
import type { inferRouterInputs } from '@trpc/server';
import type { AppRouter } from '~/server/api/root';
import { useTRPC, type RouterOutputs } from '../trpc-provider';
import { CardList, DotSeparated, NodeCount } from '../ui/card-list';
import { DataTable } from '../ui/data-table';
import { ErrorAlert } from '../ui/error-alert';
import { LoadMore } from '../ui/load-more';
import { FilterForm } from '../ui/filter-form';
import { FilterSelect } from '../ui/filter-select';
import { SkeletonRows } from '../ui/skeleton';
import { StatusBadge } from '../ui/status-badge';
import { TextField } from '../ui/text-field';
import { card, link } from '../ui/styles';

export interface AtlasClusterFilters {
  org: string;
  region: string;
  status: string;
  template: string;
  q: string;
}

type Row = RouterOutputs['atlas']['clusters']['list']['data'][number];

/** Phones: one card per cluster (name and status, then organization, region and size, then the ID). */
function ClusterCards({ clusters, className }: { clusters: Row[]; className: string }) {
  return (
    <CardList
      label="Clusters"
      items={clusters}
      itemKey={(c) => c.id}
      itemData={(c) => ({ 'data-testid': 'cluster-card', 'data-region': c.region })}
      empty="No clusters match these filters."
      className={className}
    >
      {(c) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <span className="truncate font-medium">{c.name}</span>
            <StatusBadge status={c.status} />
          </div>
          <DotSeparated
            items={[
              <Link key="org" href={`/atlas/organizations/${c.org.id}`} className={`font-mono ${link}`}>
                {c.org.slug}
              </Link>,
              <Link key="region" href={`/atlas/regions/${c.region}`} className={`font-mono ${link}`}>
                {c.region}
              </Link>,
              <span key="template" className="font-mono">
                {c.template}
              </span>,
              <NodeCount key="nodes" n={c.node_count} />,
            ]}
          />
          <p className="flex gap-2 text-xs text-slate-500 dark:text-slate-400">
            <code className="min-w-0 truncate font-mono">{c.id}</code>
            <span className="ml-auto shrink-0 font-mono">{c.created_at.slice(0, 10)}</span>
          </p>
        </>
      )}
    </CardList>
  );
}

type ListInput = inferRouterInputs<AppRouter>['atlas']['clusters']['list'];

const NO_FILTERS: AtlasClusterFilters = { org: '', region: '', status: '', template: '', q: '' };

export function AtlasClusters({ initial, templates }: { initial: AtlasClusterFilters; templates: string[] }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const [draft, setDraft] = useState(initial);
  const [applied, setApplied] = useState(initial);
  const regions = useQuery(trpc.atlas.regions.list.queryOptions({}));

  // Values from the address are the user's: the API validates them (a bad one is shown as its 400).
  const input = {
    limit: 50,
    ...Object.fromEntries(Object.entries(applied).filter(([, v]) => v.trim() !== '')),
  } as ListInput;
  const list = useInfiniteQuery(
    trpc.atlas.clusters.list.infiniteQueryOptions(input, {
      getNextPageParam: (last) => last.next_cursor ?? undefined,
      refetchInterval: (q) =>
        q.state.data?.pages.some((p) => p.data.some((c) => IN_PROGRESS_STATUSES.has(c.status))) ? 2_000 : 15_000,
    }),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const error = list.error ? trpcErrorBody(list.error) : null;

  const apply = (f: AtlasClusterFilters) => {
    setApplied(f);
    const qs = new URLSearchParams(Object.entries(f).filter(([, v]) => v.trim() !== '')).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  const set = (k: keyof AtlasClusterFilters, v: string) => setDraft((d) => ({ ...d, [k]: v }));

  return (
    <div className="space-y-4">
      <FilterForm
        label="Filter clusters"
        search
        onApply={() => apply(draft)}
        onClear={() => {
          setDraft(NO_FILTERS);
          apply(NO_FILTERS);
        }}
      >
        <TextField
          label="Name or ID"
          compact
          type="search"
          maxLength={100}
          value={draft.q}
          onChange={(e) => set('q', e.target.value)}
          placeholder="e.g. core-04 or cls_…"
        />
        <TextField
          label="Organization"
          compact
          maxLength={64}
          value={draft.org}
          onChange={(e) => set('org', e.target.value)}
          placeholder="slug or org_…"
          className="w-40"
        />
        <FilterSelect
          label="Region"
          any="Any region"
          options={(regions.data?.data ?? []).map((r) => r.code)}
          value={draft.region}
          onChange={(v) => set('region', v)}
        />
        <FilterSelect
          label="Status"
          any="Any live status"
          options={CLUSTER_STATUSES}
          value={draft.status}
          onChange={(v) => set('status', v)}
        />
        <FilterSelect
          label="Template"
          any="Any template"
          options={templates}
          value={draft.template}
          onChange={(v) => set('template', v)}
        />
      </FilterForm>
      {error && <ErrorAlert requestId={error.request_id}>Could not load clusters: {error.message}</ErrorAlert>}
      {list.isPending && !error && <SkeletonRows rows={6} label="Loading clusters…" />}
      {list.data && (
        <div className={card}>
          <ClusterCards clusters={rows} className="md:hidden" />
          <DataTable
            className="hidden md:block"
            caption="Clusters of every organization, newest first"
            rows={rows}
            rowKey={(c) => c.id}
            rowData={(c) => ({
              'data-testid': 'cluster-row',
              'data-region': c.region,
              'data-org': c.org.slug,
              'data-status': c.status,
            })}
            empty="No clusters match these filters."
            columns={[
              {
                header: 'Cluster',
                cell: (c) => (
                  <div className="min-w-32">
                    <div className="font-medium">{c.name}</div>
                    <div className="font-mono text-xs text-slate-500 dark:text-slate-400">{c.id}</div>
                  </div>
                ),
              },
              {
                header: 'Organization',
                cell: (c) => (
                  <Link href={`/atlas/organizations/${c.org.id}`} className={`font-mono ${link}`}>
                    {c.org.slug}
                  </Link>
                ),
              },
              {
                header: 'Region',
                cell: (c) => (
                  <Link href={`/atlas/regions/${c.region}`} className={`font-mono ${link}`}>
                    {c.region}
                  </Link>
                ),
              },
              { header: 'Status', cell: (c) => <StatusBadge status={c.status} /> },
              { header: 'Template', className: 'whitespace-nowrap', cell: (c) => c.template },
              { header: 'Nodes', align: 'right', className: 'tabular-nums', cell: (c) => c.node_count },
              { header: 'Version', className: 'font-mono text-xs', cell: (c) => c.version },
              {
                header: 'Created (UTC)',
                className: 'whitespace-nowrap font-mono text-xs',
                cell: (c) => c.created_at.replace('T', ' ').slice(0, 16),
              },
            ]}
          />
        </div>
      )}
      <LoadMore query={list} />
    </div>
  );
}
