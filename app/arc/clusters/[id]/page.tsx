import type { Metadata } from 'next';
import { ClusterDetail } from '~/components/arc/cluster-detail';

export const metadata: Metadata = { title: 'Cluster' };
export const dynamic = 'force-dynamic';

export default async function ClusterPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ClusterDetail id={id} />;
}
