import type { ReactNode } from 'react';
import { ArcNav } from '~/components/arc/arc-nav';
import { arcMe } from './me';

export const dynamic = 'force-dynamic';

export default async function ArcLayout({ children }: { children: ReactNode }) {
  const me = await arcMe();
  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:gap-8">
      <ArcNav orgSlug={me.organization?.slug ?? null} />
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
