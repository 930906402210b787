// /arc/settings/api-keys: the organization's region-bound API keys.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { ApiKeysManager } from '~/components/arc/api-keys/api-keys-manager';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'API keys' };
export const dynamic = 'force-dynamic';

export default async function ApiKeysPage() {
  const me = await arcMe();
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="A key works at its own region's gateway only; its requests resolve there. The secret is shown once, when you create the key."
      />
      <ApiKeysManager regions={me.organization?.allowed_regions ?? []} isAdmin={me.role === 'admin'} />
    </div>
  );
}
