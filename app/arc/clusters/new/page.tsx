import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { ClusterCreateForm } from '~/components/arc/cluster-create-form';
import { Breadcrumb } from '~/components/ui/breadcrumb';

export const metadata: Metadata = { title: 'New cluster' };
export const dynamic = 'force-dynamic';

export default async function NewClusterPage() {
  const me = await arcMe();
  const org = me.organization;
  const regions = org?.allowed_regions ?? [];
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <Breadcrumb up={{ href: '/arc/clusters', label: 'Clusters' }} current="New" />
        <h1 className="text-2xl font-semibold tracking-tight">Create a cluster</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
          {regions.length > 1
            ? 'Pick a template and the region it runs in. Provisioning takes a few moments; you can watch each step.'
            : `Your cluster runs in ${regions[0] ?? 'your organization’s region'}. Provisioning takes a few moments; you can watch each step.`}
        </p>
      </header>
      <ClusterCreateForm
        regions={regions}
        orgDefaultRegion={org?.default_region ?? null}
        userDefaultRegion={me.settings?.default_region ?? null}
        currentProjectId={me.project?.id ?? null}
      />
    </div>
  );
}
