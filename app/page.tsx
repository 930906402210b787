// /: what Meridian is, the way into Arc and Atlas, and every region with its gateway.
import Link from 'next/link';
import { StatusDot } from '~/components/ui/status-dot';
import { btnPrimary, btnSecondary, card, link } from '~/components/ui/styles';
import { serverApi } from '~/server/api/server-caller';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const api = await serverApi();
  const regions = await api.region.list();
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-3xl font-semibold tracking-tight">One console for every region</h1>
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
