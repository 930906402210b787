'use client';
// Who is signed in, the organization they act in (switchable), and sign-out.
import { useSession } from 'next-auth/react';
import Link from 'next/link';
import { useTransition } from 'react';
import { SignOutButton } from './sign-out-button';
import { focusRingTight } from './ui/styles';

export interface MenuUser {
  email: string;
  orgId: string | null;
  organizations: { id: string; slug: string; role: string }[];
  operator: boolean;
}

export function UserMenu({ user }: { user: MenuUser | null }) {
  // update() does nothing while the session is still loading: the switcher waits for it.
  const { update, status } = useSession();
  const [pending, startTransition] = useTransition();
  if (!user) {
    return (
      <Link
        href="/sign-in"
        className={`rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-slate-800 ${focusRingTight}`}
      >
        Sign in
      </Link>
    );
  }
  return (
    <div className="flex items-center gap-2 text-sm">
      {user.organizations.length > 1 ? (
        <label className="flex items-center gap-1">
          <span className="sr-only">Organization</span>
          <select
            aria-label="Organization"
            value={user.orgId ?? ''}
            disabled={pending || status === 'loading'}
            onChange={(e) => {
              const orgId = e.target.value;
              startTransition(async () => {
                await update({ orgId });
                window.location.reload();
              });
            }}
            className={`max-w-40 rounded-md border border-slate-300 bg-transparent px-2 py-1 dark:border-slate-700 ${focusRingTight}`}
          >
            {user.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.slug} ({o.role})
              </option>
            ))}
          </select>
        </label>
      ) : user.organizations[0] ? (
        <span data-testid="org" className="rounded-md bg-slate-100 px-2 py-1 dark:bg-slate-800">
          {user.organizations[0].slug}
        </span>
      ) : null}
      <span className="hidden text-slate-500 md:inline dark:text-slate-400" data-testid="user-email">
        {user.email}
      </span>
      <SignOutButton compact />
    </div>
  );
}
