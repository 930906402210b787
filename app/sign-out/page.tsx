import type { Metadata } from 'next';
import { SignOutButton } from '~/components/sign-out-button';

export const metadata: Metadata = { title: 'Sign out' };

export default function SignOutPage() {
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Sign out of Meridian?</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">You will need your password to come back.</p>
      <SignOutButton />
    </div>
  );
}
