// /atlas/organizations: every organization, for operators, and the way to a new one.
import type { Metadata } from 'next';
import Link from 'next/link';
import { OrganizationsTable } from '~/components/atlas/organizations-table';
import { PageHeader } from '~/components/ui/page-header';
import { btnPrimary } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Organizations · Atlas' };
export const dynamic = 'force-dynamic';

export default function OrganizationsPage() {
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow="Atlas"
        tone="atlas"
        title="Organizations"
        description="Every organization: where it may run (its allowed and default regions), its members, clusters and active API keys."
        actions={
          <Link href="/atlas/organizations/new" className={btnPrimary}>
            New organization
          </Link>
        }
      />
      <OrganizationsTable />
    </div>
  );
}
