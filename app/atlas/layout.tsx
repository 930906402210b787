import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

export default async function AtlasLayout({ children }: { children: ReactNode }) {
  const me = await (await serverApi()).me.get().catch(() => null);
  if (!me || me.kind !== 'session') redirect('/sign-in?callbackUrl=/atlas');
  if (!me.user?.platform_operator) {
    return (
      <div
        role="alert"
        className="mx-auto mt-12 max-w-md space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-6 dark:border-amber-800 dark:bg-amber-950"
      >
        <h1 className="text-lg font-semibold">Atlas is for platform operators</h1>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          You are signed in as {me.user?.email}. Your organization&apos;s clusters and settings are in Arc.
        </p>
      </div>
    );
  }
  return children;
}
