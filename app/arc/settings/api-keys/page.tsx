// /arc/settings/api-keys: the organization's API keys (region keys and organization-wide keys).
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
        description="A region key works at its own region only; its requests resolve there. An organization-wide (global) key works in every region of the organization, at the global address. The secret is shown once, when you create the key."
      />
      <ApiKeysManager regions={me.organization?.allowed_regions ?? []} isAdmin={me.role === 'admin'} />
    </div>
  );
}
