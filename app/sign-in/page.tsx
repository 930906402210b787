// /sign-in: email and password, then back to the page that asked (same site only).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { SignInForm } from '~/components/sign-in-form';
import { requestOrigin } from '~/server/net/host';
import { sameOriginPath } from '~/server/net/redirect';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only this origin: never bounce a user elsewhere after sign-in (server/net/redirect.ts).
  const next = sameOriginPath(
    typeof callbackUrl === 'string' ? callbackUrl : undefined,
    requestOrigin(await headers()),
    '/arc',
  );
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <PageHeader title="Sign in to Meridian" description="Arc for your organization, Atlas for operators." centered />
      <SignInForm next={next} />
    </div>
  );
}
