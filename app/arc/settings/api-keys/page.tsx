import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { ApiKeysManager } from '~/components/api-keys-manager';

export const metadata: Metadata = { title: 'API keys' };
export const dynamic = 'force-dynamic';

export default async function ApiKeysPage() {
  const me = await arcMe();
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
          A key works at its own region&apos;s gateway only; its requests resolve there. The secret is shown once, when
          you create the key.
        </p>
      </header>
      <ApiKeysManager regions={me.organization?.allowed_regions ?? []} isAdmin={me.role === 'admin'} />
    </div>
  );
}
