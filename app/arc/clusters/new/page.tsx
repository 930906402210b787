// /arc/clusters/new: the create-cluster form under its page header.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { ClusterCreateForm } from '~/components/arc/clusters/create/cluster-create-form';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'New cluster' };
export const dynamic = 'force-dynamic';

export default async function NewClusterPage() {
  const me = await arcMe();
  const regions = me.organization?.allowed_regions ?? [];
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={{ up: { href: '/arc/clusters', label: 'Clusters' }, current: 'New' }}
        title="Create a cluster"
        description={
          regions.length > 1
            ? 'Pick a template and the region it runs in. Provisioning takes a few moments; you can watch each step.'
            : `Your cluster runs in ${regions[0] ?? 'your organization’s region'}. Provisioning takes a few moments; you can watch each step.`
        }
      />
      <ClusterCreateForm regions={regions} currentProjectId={me.project?.id ?? null} />
    </div>
  );
}
