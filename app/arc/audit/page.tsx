// /arc/audit: the organization's audit log — what its people and keys did, and what Meridian's
// operators did to it. Everyone in it reads it (members without what only admins see); admins
// export it as CSV or JSON Lines.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { AuditLog } from '~/components/audit/audit-log';
import { PageHeader } from '~/components/ui/page-header';
import { noticeWarning, sectionText } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Audit log' };
export const dynamic = 'force-dynamic';

export default async function ArcAuditPage() {
  const me = await arcMe();
  const org = me.organization;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description="Who did what in your organization, when, and from which request: sign-ins, API keys, members, roles and invitations, single sign-on, webhooks, clusters and projects, and the changes Meridian's operators made to it."
      />
      {!org ? (
        <p className={noticeWarning}>Choose an organization to see its audit log.</p>
      ) : me.role !== 'admin' ? (
        <>
          <p className={sectionText} data-testid="audit-member-notice">
            You see every event without the details only admins read (invitees&apos; emails, the addresses people sign
            in from, webhook URLs, operators&apos; reasons). Admins export the log.
          </p>
          <AuditLog scope="organization" />
        </>
      ) : (
        <AuditLog scope="organization" exportAs={org.slug} />
      )}
    </div>
  );
}
