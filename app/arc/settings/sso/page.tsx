// /arc/settings/sso: the organization's single sign-on (OIDC), set up and changed by its admins.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { SsoSettingsForm } from '~/components/arc/settings/sso-settings-form';
import { PageHeader } from '~/components/ui/page-header';
import { panel, sectionText } from '~/components/ui/styles';
import { serverApi } from '~/server/api/server-caller';
import { SSO_ROLES } from '~/server/sso/roles';

export const metadata: Metadata = { title: 'Single sign-on' };
export const dynamic = 'force-dynamic';

export default async function SsoSettingsPage() {
  const me = await arcMe();
  const isAdmin = me.role === 'admin';
  const saved = isAdmin ? await (await serverApi()).organization.sso.get() : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Single sign-on"
        description="Your people sign in through your identity provider (OpenID Connect): Okta, Entra ID, Google Workspace, Keycloak or any other."
      />
      {isAdmin ? (
        <SsoSettingsForm saved={saved} roles={SSO_ROLES} />
      ) : (
        <p className={`${panel} ${sectionText}`}>Organization admins set up single sign-on.</p>
      )}
    </div>
  );
}
