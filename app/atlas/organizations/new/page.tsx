// /atlas/organizations/new: an operator creates an organization (its slug reserved in the
// directory by its home region's cell, then created and activated).
import type { Metadata } from 'next';
import { OrganizationCreateForm } from '~/components/atlas/organization-create-form';
import { PageHeader } from '~/components/ui/page-header';
import { serverApi } from '~/server/api/server-caller';

export const metadata: Metadata = { title: 'New organization · Atlas' };
export const dynamic = 'force-dynamic';

export default async function NewOrganizationPage() {
  const regions = await (await serverApi()).atlas.regions.list({});
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={{ up: { href: '/atlas/organizations', label: 'Organizations' }, current: 'New' }}
        tone="atlas"
        title="New organization"
        description="A workspace of its own: its slug is reserved in every region, its first admin gets a link to set a password."
      />
      <OrganizationCreateForm regions={regions.data.map(({ code, label, status }) => ({ code, label, status }))} />
    </div>
  );
}
