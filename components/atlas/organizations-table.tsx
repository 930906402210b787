'use client';
// Every organization for operators: search by slug, name or ID, filter by an allowed region, a page
// at a time; each row links to the organization's page. Refreshed every 10 s.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC, type RouterOutputs } from '../trpc-provider';
import { CardList } from '../ui/card-list';
import { DataTable } from '../ui/data-table';
import { ErrorAlert } from '../ui/error-alert';
import { LoadMore } from '../ui/load-more';
import { FilterForm } from '../ui/filter-form';
import { FilterSelect } from '../ui/filter-select';
import { SkeletonRows } from '../ui/skeleton';
import { TextField } from '../ui/text-field';
import { card, link } from '../ui/styles';
import { RegionList } from './region-list';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

type Org = RouterOutputs['atlas']['organizations']['list']['data'][number];

/** Phones: one card per organization (name and slug, regions, then the counts). */
function OrganizationCards({ orgs, className }: { orgs: Org[]; className: string }) {
  return (
    <CardList
      label="Organizations"
      items={orgs}
      itemKey={(o) => o.id}
      itemData={(o) => ({ 'data-testid': 'org-card', 'data-slug': o.slug })}
      empty="No organization matches this search."
      className={className}
    >
      {(o) => (
        <>
          <div className="flex items-start justify-between gap-3">
            <Link href={`/atlas/organizations/${o.id}`} className={`${link} truncate text-base`}>
              {o.name}
            </Link>
            <span className="text-xs text-slate-600 dark:text-slate-300">{o.status}</span>
          </div>
          <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-300">
            <span className="font-mono">{o.slug}</span>
            <RegionList regions={o.allowed_regions} defaultRegion={o.default_region} />
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {plural(o.members, 'member')} · {plural(o.clusters.total, 'cluster')} ({o.clusters.ready} ready,{' '}
            {o.clusters.failed} failed) · {plural(o.active_api_keys, 'API key')}
          </p>
        </>
      )}
    </CardList>
  );
}

interface Filters {
  q: string;
  region: string;
}
const EMPTY: Filters = { q: '', region: '' };

export function OrganizationsTable() {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const regions = useQuery(trpc.atlas.regions.list.queryOptions({}));
  const list = useInfiniteQuery(
    trpc.atlas.organizations.list.infiniteQueryOptions(
      {
        limit: 50,
        ...(applied.q.trim() ? { q: applied.q.trim() } : {}),
        ...(applied.region ? { region: applied.region } : {}),
      },
      { getNextPageParam: (last) => last.next_cursor ?? undefined, refetchInterval: 10_000 },
    ),
  );
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <div className="space-y-4">
      <FilterForm
        label="Find organizations"
        search
        submitLabel="Search"
        onApply={() => setApplied(draft)}
        onClear={() => {
          setDraft(EMPTY);
          setApplied(EMPTY);
        }}
      >
        <TextField
          label="Search"
          compact
          type="search"
          value={draft.q}
          maxLength={100}
          onChange={(e) => setDraft((d) => ({ ...d, q: e.target.value }))}
          placeholder="slug, name or org_…"
          className="min-w-48 flex-1 sm:flex-none"
        />
        <FilterSelect
          label="Allowed region"
          any="Any region"
          options={(regions.data?.data ?? []).map((r) => r.code)}
          optionLabel={(code) => `${code} (${regions.data?.data.find((r) => r.code === code)?.label})`}
          value={draft.region}
          onChange={(region) => setDraft((d) => ({ ...d, region }))}
        />
      </FilterForm>
      {list.isError && <ErrorAlert>The organizations could not be read: {list.error.message}</ErrorAlert>}
      {list.isPending && <SkeletonRows rows={4} label="Loading organizations…" />}
      {list.data && (
        <div className={card}>
          <OrganizationCards orgs={rows} className="md:hidden" />
          <DataTable
            className="hidden md:block"
            caption="Organizations, by slug"
            rows={rows}
            rowKey={(o) => o.id}
            rowData={(o) => ({ 'data-testid': 'org-row', 'data-slug': o.slug })}
            empty="No organization matches this search."
            columns={[
              {
                header: 'Organization',
                cell: (o) => (
                  <div className="min-w-32">
                    <Link href={`/atlas/organizations/${o.id}`} className={link}>
                      {o.name}
                    </Link>
                    <div className="font-mono text-xs text-slate-500 dark:text-slate-400">{o.slug}</div>
                  </div>
                ),
              },
              { header: 'Status', cell: (o) => o.status },
              {
                header: 'Regions (default ★)',
                cell: (o) => <RegionList regions={o.allowed_regions} defaultRegion={o.default_region} />,
              },
              { header: 'Members', align: 'right', className: 'tabular-nums', cell: (o) => o.members },
              {
                header: 'Clusters',
                cell: (o) => (
                  <span className="whitespace-nowrap tabular-nums">
                    <strong className="font-semibold">{o.clusters.total}</strong>
                    <span className="text-xs text-slate-600 dark:text-slate-300">
                      {' '}
                      ({o.clusters.ready} ready, {o.clusters.pending + o.clusters.provisioning} starting,{' '}
                      {o.clusters.failed} failed, {o.clusters.deleting} deleting)
                    </span>
                  </span>
                ),
              },
              { header: 'API keys', align: 'right', className: 'tabular-nums', cell: (o) => o.active_api_keys },
              {
                header: 'Created (UTC)',
                className: 'whitespace-nowrap font-mono text-xs',
                cell: (o) => o.created_at.slice(0, 10),
              },
            ]}
          />
        </div>
      )}
      <LoadMore query={list} />
    </div>
  );
}
