import type { Metadata } from 'next';
import { SignInForm } from '~/components/sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  // Only same-site paths: never bounce a user to another origin after sign-in.
  const next = callbackUrl?.startsWith('/') && !callbackUrl.startsWith('//') ? callbackUrl : '/arc';
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6">
      <div className="space-y-1 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to Meridian</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">Arc for your organization, Atlas for operators.</p>
      </div>
      <SignInForm next={next} />
    </div>
  );
}
