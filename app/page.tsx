// /: at the global address, "find your workspace" first (one field, works without JavaScript);
// then what Meridian is, the way into Arc and Atlas, and every region with its gateway.
import { headers } from 'next/headers';
import Link from 'next/link';
import { FindWorkspace } from '~/components/directory/find-workspace';
import { globalPageState } from '~/server/directory/page';
import { StatusDot } from '~/components/ui/status-dot';
import { btnPrimary, btnSecondary, card, link } from '~/components/ui/styles';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

type Search = { workspace?: string; error?: string; region?: string };

export default async function Home({ searchParams }: { searchParams: Promise<Search> }) {
  const api = await serverApi();
  const regions = await api.region.list();
  const page = globalPageState(await headers());
  const q = await searchParams;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const Title = page.directory ? 'h2' : 'h1';
  return (
    <div className="space-y-10">
      {page.directory && (
        <section aria-labelledby="find-heading" className="mx-auto max-w-md space-y-4">
          <div className="space-y-1 text-center">
            <h1 id="find-heading" className="text-3xl font-semibold tracking-tight">
              Find your workspace
            </h1>
            <p className="text-slate-600 dark:text-slate-300">Type your workspace and we take you to your region.</p>
          </div>
          <FindWorkspace
            remembered={page.remembered}
            initialValue={str(q.workspace)?.slice(0, 63)}
            initialError={str(q.error) === 'region_down' ? undefined : str(q.error)}
            initialDown={str(q.error) === 'region_down' ? (str(q.region)?.slice(0, 100) ?? 'your region') : undefined}
          />
        </section>
      )}
      <section className="space-y-3">
        <Title
          className={page.directory ? 'text-2xl font-semibold tracking-tight' : 'text-3xl font-semibold tracking-tight'}
        >
          One console for every region
        </Title>
        <p className="max-w-2xl text-slate-600 dark:text-slate-300">
          Meridian routes every request to its region before any application code runs. Customers manage their clusters
          in <strong>Arc</strong>; platform operators watch servers, replication and workspace moves in{' '}
          <strong>Atlas</strong>.
        </p>
        <div className="flex gap-3 pt-2">
          <Link href="/arc" className={btnPrimary}>
            Open Arc
          </Link>
          <Link href="/atlas" className={btnSecondary}>
            Open Atlas
          </Link>
        </div>
      </section>
      <section aria-labelledby="regions-heading" className="space-y-3">
        <h2 id="regions-heading" className="text-lg font-semibold">
          Regions
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {regions.map((r) => (
            <li key={r.code} className={`${card} p-4`}>
              <div className="flex items-baseline justify-between">
                <span className="font-mono text-sm font-semibold">{r.code}</span>
              </div>
              <div className="mt-1 text-base">{r.label}</div>
              <div className="mt-2 flex items-center justify-between text-xs text-slate-500 dark:text-slate-400">
                <StatusDot status={r.status} />
                <span>{r.timezone}</span>
              </div>
              <a href={r.baseUrl} className={`${link} mt-2 block truncate font-mono text-xs`}>
                {r.baseUrl}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
