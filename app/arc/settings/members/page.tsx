// /arc/settings/members: the organization's members and roles, and (admins) invitations.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { MembersManager } from '~/components/arc/members/members-manager';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Members' };
export const dynamic = 'force-dynamic';

export default async function MembersPage() {
  const me = await arcMe();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Members"
        description="Viewers read everything and change nothing; members do the work; admins also manage people, invitations and API keys. An invitation link works once, for 7 days."
      />
      <MembersManager isAdmin={me.role === 'admin'} meId={me.user?.id ?? null} />
    </div>
  );
}
