import { forbidden, redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { AlertBanner } from '~/components/atlas/alert-banner';
import { AtlasNav } from '~/components/atlas/atlas-nav';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

export default async function AtlasLayout({ children }: { children: ReactNode }) {
  const me = await (await serverApi()).me.get().catch(() => null);
  if (!me || me.kind !== 'session') redirect('/sign-in?callbackUrl=/atlas');
  if (!me.user?.platform_operator) forbidden(); // a real 403, rendered by app/forbidden.tsx
  return (
    <div className="space-y-4">
      <AlertBanner />
      <AtlasNav />
      {children}
    </div>
  );
}
