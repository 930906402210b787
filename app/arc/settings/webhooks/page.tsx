// /arc/settings/webhooks: the organization's webhook endpoints, their delivery log (admins).
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { WebhooksManager } from '~/components/arc/webhooks/webhooks-manager';
import { PageHeader } from '~/components/ui/page-header';
import { noticeWarning } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Webhooks' };
export const dynamic = 'force-dynamic';

export default async function WebhooksPage() {
  const me = await arcMe();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Meridian POSTs your organization's events (clusters ready or failed, keys, members) to these URLs, signed as Standard Webhooks says, from the region that serves your workspace. The signing secret is shown once."
      />
      {me.role === 'admin' ? (
        <WebhooksManager />
      ) : (
        <p className={noticeWarning}>Only organization admins see and manage webhooks.</p>
      )}
    </div>
  );
}
