// /atlas/organizations/[id]: one organization, for operators: facts, clusters, regions editor.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { OrganizationDetail } from '~/components/atlas/organization-detail';
import { PageHeader } from '~/components/ui/page-header';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const org = await (await serverApi()).atlas.organizations.get({ id: (await params).id }).catch(() => null);
  return { title: `${org?.slug ?? 'Organization'} · Atlas` };
}

export default async function OrganizationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const org = await (await serverApi()).atlas.organizations.get({ id }).catch((e: unknown) => {
    if ((e as { cause?: { code?: string } }).cause?.code === 'not_found') notFound();
    throw e;
  });
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={{ up: { href: '/atlas/organizations', label: 'Organizations' }, current: org.slug }}
        tone="atlas"
        title={org.name}
        description="Where this organization may run, and what it holds there."
      />
      <OrganizationDetail id={org.id} />
    </div>
  );
}
