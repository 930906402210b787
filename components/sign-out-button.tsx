'use client';
// Signs out through Auth.js and lands on the sign-in page: a quiet link-like button in the top
// bar (compact), a full-width one on the sign-out page.
import { signOut } from 'next-auth/react';
import { focusRing } from './ui/styles';

export function SignOutButton({ compact = false }: { compact?: boolean }) {
  return (
    <button
      type="button"
      onClick={() => void signOut({ redirectTo: '/sign-in' })}
      className={`${focusRing} ${
        compact
          ? 'whitespace-nowrap rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          : 'w-full rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700 dark:bg-white dark:text-slate-900'
      }`}
    >
      Sign out
    </button>
  );
}
