import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

export default async function ArcLayout({ children }: { children: ReactNode }) {
  const me = await (await serverApi()).me.get().catch(() => null);
  if (!me || me.kind !== 'session') redirect('/sign-in?callbackUrl=/arc');
  return children;
}
