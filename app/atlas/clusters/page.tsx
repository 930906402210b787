// /atlas/clusters: clusters across every organization, for operators; filters in the address.
import type { Metadata } from 'next';
import { AtlasClusters, type AtlasClusterFilters } from '~/components/atlas/atlas-clusters';
import { PageHeader } from '~/components/ui/page-header';
import { TEMPLATE_IDS } from '~/server/clusters/templates';

export const metadata: Metadata = { title: 'Clusters · Atlas' };
export const dynamic = 'force-dynamic';

export default async function AtlasClustersPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (k: string) => {
    const v = params[k];
    return (Array.isArray(v) ? v[0] : v)?.slice(0, 100) ?? '';
  };
  const initial: AtlasClusterFilters = {
    org: one('org'),
    region: one('region'),
    status: one('status'),
    template: one('template'),
    q: one('q'),
  };
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Clusters"
        description="Clusters of every organization, newest first. Deleted ones show only when you filter by that status."
      />
      <AtlasClusters initial={initial} templates={[...TEMPLATE_IDS]} />
    </div>
  );
}
