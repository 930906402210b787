// /atlas/regions/[code]: one region for operators: health, capacity, clusters, history.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RegionDetail } from '~/components/atlas/region-detail';
import { PageHeader } from '~/components/ui/page-header';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ code: string }> }): Promise<Metadata> {
  return { title: `${(await params).code} · Atlas` };
}

export default async function RegionPage({ params }: { params: Promise<{ code: string }> }) {
  const { code } = await params;
  // A malformed or unknown code is a 404 page (the API says 400 / 404); anything else is an error.
  const region = await (await serverApi()).atlas.regions.get({ code }).catch((e: unknown) => {
    const c = (e as { cause?: { code?: string } }).cause?.code;
    if (c === 'not_found' || c === 'invalid_region') notFound();
    throw e;
  });
  return (
    <div className="space-y-6">
      <PageHeader
        breadcrumb={{ up: { href: '/atlas', label: 'Regions' }, current: code }}
        tone="atlas"
        title={
          <>
            <span className="font-mono">{region.code}</span>{' '}
            <span className="text-lg font-normal text-slate-600 dark:text-slate-300">
              {region.label}, {region.country} · {region.provider}
              {region.isPrimary ? ' · primary' : ''}
            </span>
          </>
        }
        description="Health, capacity and clusters of this region, live; its lag and traffic history below."
      />
      <RegionDetail code={region.code} />
    </div>
  );
}
