import type { Metadata } from 'next';
import { StatusDot } from '~/components/ui/status-dot';
import { serverApi } from '~/server/api/server-caller';

export const metadata: Metadata = { title: 'Atlas' };
export const dynamic = 'force-dynamic';

export default async function AtlasHome() {
  const api = await serverApi();
  const regions = await api.region.list();
  return (
    <div className="space-y-6">
      <header>
        <p className="text-sm font-medium text-cyan-700 dark:text-cyan-400">Atlas</p>
        <h1 className="text-2xl font-semibold tracking-tight">Platform operations</h1>
      </header>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Regions</caption>
          <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 dark:border-slate-800">
            <tr>
              <th scope="col" className="px-4 py-2">
                Region
              </th>
              <th scope="col" className="px-4 py-2">
                Location
              </th>
              <th scope="col" className="px-4 py-2">
                Provider
              </th>
              <th scope="col" className="px-4 py-2">
                Status
              </th>
              <th scope="col" className="px-4 py-2">
                Gateway
              </th>
            </tr>
          </thead>
          <tbody>
            {regions.map((r) => (
              <tr key={r.code} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td className="px-4 py-2 font-mono font-semibold">
                  {r.code}
                  {r.isPrimary ? ' ★' : ''}
                </td>
                <td className="px-4 py-2">
                  {r.label}, {r.country}
                </td>
                <td className="px-4 py-2">{r.provider}</td>
                <td className="px-4 py-2">
                  <StatusDot status={r.status} />
                </td>
                <td className="px-4 py-2 font-mono text-xs">{r.baseUrl}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
