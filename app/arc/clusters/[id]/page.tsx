// /arc/clusters/[id]: one cluster, rendered on the client so it can follow its runs live.
import type { Metadata } from 'next';
import { ClusterDetail } from '~/components/arc/clusters/detail/cluster-detail';

export const metadata: Metadata = { title: 'Cluster' };
export const dynamic = 'force-dynamic';

export default async function ClusterPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ClusterDetail id={id} />;
}
