// /invite/{token}: an invitation's accept page, at the workspace's region (at the global address
// it only points there: no password is typed at the global address).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { AcceptInvitationForm } from '~/components/members/accept-invitation-form';
import { ErrorAlert } from '~/components/ui/error-alert';
import { PageHeader } from '~/components/ui/page-header';
import { link } from '~/components/ui/styles';
import { serverApi } from '~/server/api/server-caller';
import { isGlobalAddress } from '~/server/directory/page';
import { isAppError } from '~/server/errors';
import { regionRegistry } from '~/server/region/registry';

// The link's token is in this page's path: never sent on as a Referer.
export const metadata: Metadata = { title: 'Accept invitation', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const preview = await (await serverApi()).invitations.preview({ token: token.slice(0, 100) }).catch((e: unknown) => {
    const cause = (e as { cause?: unknown }).cause;
    return { error: isAppError(cause) ? cause.message : 'this invitation link is not valid' };
  });
  if ('error' in preview) {
    return (
      <div className="mx-auto mt-8 max-w-md space-y-6">
        <PageHeader title="Invitation" centered />
        <ErrorAlert>{preview.error}</ErrorAlert>
      </div>
    );
  }
  const title = (
    <>
      Join <span className="font-semibold">{preview.organization.name}</span>
    </>
  );
  if (isGlobalAddress(await headers())) {
    const base = (await regionRegistry()).get(preview.region)?.baseUrl;
    return (
      <div className="mx-auto mt-8 max-w-md space-y-6">
        <PageHeader title={title} centered />
        <p className="text-center text-sm">
          This invitation is accepted at the workspace’s region.{' '}
          {base && (
            <a className={link} href={`${base}/invite/${encodeURIComponent(token)}`}>
              Continue at {preview.region}
            </a>
          )}
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <PageHeader
        title={title}
        description={`${preview.email} is invited as ${preview.role === 'admin' ? 'an' : 'a'} ${preview.role} of ${preview.organization.slug} (region ${preview.region}). The link works once, until ${preview.expires_at.slice(0, 10)}.`}
        centered
      />
      <AcceptInvitationForm
        token={token}
        email={preview.email}
        workspace={preview.organization.slug}
        hasAccount={preview.has_account}
        ssoRequired={preview.sso_required}
      />
    </div>
  );
}
