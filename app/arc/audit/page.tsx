// /arc/audit: the organization's audit log — what its people and keys did, and what Meridian's
// operators did to it; admins export it.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { AuditLog } from '~/components/audit/audit-log';
import { PageHeader } from '~/components/ui/page-header';
import { noticeWarning } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Audit log' };
export const dynamic = 'force-dynamic';

export default async function ArcAuditPage() {
  const me = await arcMe();
  const org = me.organization;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description="Who did what in your organization, when, and from which request: sign-ins, API keys, members, roles and invitations, single sign-on, webhooks, and the changes Meridian's operators made to it."
      />
      {!org ? (
        <p className={noticeWarning}>Choose an organization to see its audit log.</p>
      ) : (
        <AuditLog scope="organization" exportAs={me.role === 'admin' ? org.slug : undefined} />
      )}
    </div>
  );
}
