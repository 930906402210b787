// /set-password?token=…: a new organization's first admin sets their password, once, at their
// workspace's region (never at the global address). server/organizations/first-admin.ts
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { SetPasswordForm } from '~/components/set-password-form';
import { PageHeader } from '~/components/ui/page-header';
import { isGlobalAddress } from '~/server/directory/page';

// The token is in the URL: no Referer carries it anywhere.
export const metadata: Metadata = { title: 'Set your password', referrer: 'no-referrer' };
export const dynamic = 'force-dynamic';

export default async function SetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  const valid = typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
  const atGlobal = isGlobalAddress(await headers());
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <PageHeader title="Set your password" description="Your new workspace is waiting." centered />
      {atGlobal ? (
        <p className="text-center">
          Passwords are set at your workspace’s region: open your link exactly as you got it.
        </p>
      ) : valid ? (
        <SetPasswordForm token={token} />
      ) : (
        <p className="text-center">This link is not complete: open it exactly as you got it, or ask for a new one.</p>
      )}
    </div>
  );
}
