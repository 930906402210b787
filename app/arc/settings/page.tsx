// /arc/settings: the signed-in user's own settings and sessions, and the way to the organization's
// API keys and webhooks and (admins) single sign-on.
import type { Metadata } from 'next';
import Link from 'next/link';
import { arcMe } from '~/app/arc/me';
import { DefaultRegionForm } from '~/components/arc/settings/default-region-form';
import { SessionsList } from '~/components/arc/settings/sessions-list';
import { ThemePicker } from '~/components/arc/settings/theme-picker';
import { PageHeader } from '~/components/ui/page-header';
import { link, panel, sectionText } from '~/components/ui/styles';

export const metadata: Metadata = { title: 'Settings' };
export const dynamic = 'force-dynamic';

export default async function SettingsPage() {
  const me = await arcMe();
  const org = me.organization;
  const regions = org?.allowed_regions ?? [];
  return (
    <div className="space-y-6">
      <PageHeader
        title="Settings"
        description={
          <>
            Yours alone: {me.user?.email}
            {org ? ` in ${org.slug}` : ''}.
          </>
        }
      />
      <ThemePicker saved={me.settings?.theme ?? 'system'} />
      {regions.length > 1 && (
        <DefaultRegionForm
          saved={me.settings?.default_region ?? null}
          regions={regions}
          orgDefaultRegion={org?.default_region ?? null}
        />
      )}
      <SessionsList />
      <section className={`${panel} flex flex-wrap items-center justify-between gap-3`}>
        <div>
          <h2 className="font-medium">API keys</h2>
          <p className={sectionText}>
            Region-bound keys for the REST API{me.role === 'admin' ? '' : ' (organization admins manage them)'}.
          </p>
        </div>
        <Link href="/arc/settings/api-keys" className={link}>
          Manage API keys →
        </Link>
      </section>
      <section className={`${panel} flex flex-wrap items-center justify-between gap-3`}>
        <div>
          <h2 className="font-medium">Webhooks</h2>
          <p className={sectionText}>
            Events pushed to your URLs, signed{me.role === 'admin' ? '' : ' (organization admins manage them)'}.
          </p>
        </div>
        <Link href="/arc/settings/webhooks" className={link}>
          Manage webhooks →
        </Link>
      </section>
      {me.role === 'admin' && (
        <section className={`${panel} flex flex-wrap items-center justify-between gap-3`}>
          <div>
            <h2 className="font-medium">Single sign-on</h2>
            <p className={sectionText}>Your people sign in through your identity provider (OIDC).</p>
          </div>
          <Link href="/arc/settings/sso" className={link}>
            Set up single sign-on →
          </Link>
        </section>
      )}
    </div>
  );
}
