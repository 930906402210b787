'use client';
// One organization for operators: its facts, clusters by status and per region, the editor of its
// allowed and default regions, and its lifecycle (suspend, offboard). Refreshed every 10 s (the
// editor starts over after a save).
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '../trpc-provider';
import { CardSection } from '../ui/card-section';
import { ErrorAlert } from '../ui/error-alert';
import { Fact } from '../ui/fact';
import { SkeletonRows } from '../ui/skeleton';
import { link } from '../ui/styles';
import { ClusterCounts } from './cluster-counts';
import { MovesList } from './moves/moves-list';
import { OrganizationLifecycle } from './organization-lifecycle';
import { OrganizationRegionsForm } from './organization-regions-form';
import { RegionList } from './region-list';

export function OrganizationDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const org = useQuery(trpc.atlas.organizations.get.queryOptions({ id }, { refetchInterval: 10_000 }));
  const regions = useQuery(trpc.atlas.regions.list.queryOptions({}));
  const o = org.data;
  if (!o) {
    if (org.isError) return <ErrorAlert>The organization could not be read: {org.error.message}</ErrorAlert>;
    return <SkeletonRows rows={4} label="Loading the organization…" />;
  }
  const perRegion = Object.entries(o.clusters_by_region).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="space-y-6">
      <CardSection id="facts-heading" title="Facts">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          <Fact label="ID">
            <span className="break-all font-mono text-xs">{o.id}</span>
          </Fact>
          <Fact label="Slug" look="mono">
            {o.slug}
          </Fact>
          <Fact label="Status" testId="org-status">
            {o.status}
          </Fact>
          <Fact label="Created (UTC)">{o.created_at.replace('T', ' ').slice(0, 16)}</Fact>
          <Fact label="Allowed regions" testId="org-regions">
            <RegionList regions={o.allowed_regions} defaultRegion={o.default_region} />
          </Fact>
          <Fact label="Default region" testId="org-default-region">
            {o.default_region ? <span className="font-mono">{o.default_region}</span> : 'none'}
          </Fact>
          <Fact label="Members" testId="org-members">
            {o.members}
          </Fact>
          <Fact label="Projects">{o.projects}</Fact>
          <Fact label="Active API keys" testId="org-keys">
            {o.active_api_keys}
          </Fact>
        </dl>
      </CardSection>

      <CardSection id="org-clusters-heading" title="Clusters">
        <ClusterCounts counts={o.clusters} filter={`org=${o.slug}`} label={`Clusters of ${o.slug} by status`} />
        {perRegion.length > 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="clusters-per-region">
            Live per region:{' '}
            {perRegion.map(([r, n], i) => (
              <span key={r}>
                {i > 0 && ', '}
                <Link href={`/atlas/clusters?org=${o.slug}&region=${r}`} className={link}>
                  {r}: {n}
                </Link>
              </span>
            ))}
          </p>
        )}
      </CardSection>

      <CardSection id="regions-form-heading" title="Regions">
        {regions.data ? (
          <OrganizationRegionsForm key={o.updated_at} org={o} regions={regions.data.data} />
        ) : regions.isError ? (
          <ErrorAlert>The regions could not be read: {regions.error.message}</ErrorAlert>
        ) : (
          <SkeletonRows rows={2} label="Loading regions…" />
        )}
      </CardSection>
      <CardSection id="lifecycle-heading" title="Lifecycle">
        <OrganizationLifecycle org={o} />
      </CardSection>
      {/* Its workspace moves (status live while one is open); start one from Atlas → Moves. */}
      <MovesList org={o.id} />
      <p className="text-sm">
        <Link href={`/atlas/moves?slug=${o.slug}`} className={link}>
          Move {o.slug} to another region
        </Link>
      </p>
    </div>
  );
}
