// /sign-in: email and password, then back to the page that asked (same site only).
import type { Metadata } from 'next';
import { SignInForm } from '~/components/sign-in-form';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only same-site paths: never bounce a user to another origin after sign-in.
  const next = callbackUrl?.startsWith('/') && !callbackUrl.startsWith('//') ? callbackUrl : '/arc';
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <PageHeader title="Sign in to Meridian" description="Arc for your organization, Atlas for operators." centered />
      <SignInForm next={next} />
    </div>
  );
}
