// /arc/clusters: the organization's clusters in every region it may use.
import type { Metadata } from 'next';
import Link from 'next/link';
import { arcMe } from '~/app/arc/me';
import { ClustersList } from '~/components/arc/clusters/clusters-list';
import { PageHeader } from '~/components/ui/page-header';
import { btnPrimary } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Clusters' };
export const dynamic = 'force-dynamic';

export default async function ClustersPage() {
  const me = await arcMe();
  const regions = me.organization?.allowed_regions ?? [];
  // The region a list names none of goes to (the cascade: the session's project, then the
  // organization's default); without one, it spans every region.
  const implied = [me.project?.default_region, me.organization?.default_region].find(
    (r): r is string => !!r && regions.includes(r),
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Clusters"
        description={
          regions.length > 1
            ? `Managed Kubernetes in ${regions.join(', ')}. Each region answers for its own clusters.`
            : `Managed Kubernetes in ${regions[0] ?? 'your region'}.`
        }
        actions={
          <Link href="/arc/clusters/new" className={btnPrimary}>
            Create cluster
          </Link>
        }
      />
      <ClustersList regions={regions} impliedRegion={implied} />
    </div>
  );
}
