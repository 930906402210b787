// /sign-out: asks before signing out (the top bar’s button signs out at once).
import type { Metadata } from 'next';
import { SignOutButton } from '~/components/sign-out-button';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Sign out' };

export default function SignOutPage() {
  return (
    <div className="mx-auto mt-8 max-w-sm space-y-6 text-center">
      <PageHeader title="Sign out of Meridian?" description="You will need your password to come back." centered />
      <SignOutButton />
    </div>
  );
}
