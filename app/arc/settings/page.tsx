import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import Link from 'next/link';
import { SettingsForm } from '~/components/arc/settings-form';
import { card, link } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Settings' };
export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  const me = await arcMe();
  const org = me.organization;
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
          Yours alone: {me.user?.email}
          {org ? ` in ${org.slug}` : ''}.
        </p>
      </header>
      <SettingsForm
        theme={me.settings?.theme ?? 'system'}
        defaultRegion={me.settings?.default_region ?? null}
        regions={org?.allowed_regions ?? []}
        orgDefaultRegion={org?.default_region ?? null}
      />
      <section className={`${card} flex flex-wrap items-center justify-between gap-3 p-4 sm:p-5`}>
        <div>
          <h2 className="font-medium">API keys</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Region-bound keys for the REST API{me.role === 'admin' ? '' : ' (organization admins manage them)'}.
          </p>
        </div>
        <Link href="/arc/settings/api-keys" className={link}>
          Manage API keys →
        </Link>
      </section>
    </div>
  );
}
