import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import Link from 'next/link';
import { ClustersList } from '~/components/arc/clusters-list';
import { btnPrimary } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Clusters' };
export const dynamic = 'force-dynamic';

export default async function ClustersPage() {
  const me = await arcMe();
  const regions = me.organization?.allowed_regions ?? [];
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight">Clusters</h1>
          <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
            {regions.length > 1
              ? `Managed Kubernetes in ${regions.join(', ')}. Each region answers for its own clusters.`
              : `Managed Kubernetes in ${regions[0] ?? 'your region'}.`}
          </p>
        </div>
        <Link href="/arc/clusters/new" className={btnPrimary}>
          Create cluster
        </Link>
      </header>
      <ClustersList regions={regions} />
    </div>
  );
}
