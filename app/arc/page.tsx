import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Arc' };
export const dynamic = 'force-dynamic';

const AREAS = [
  { name: 'Clusters', href: '/arc/clusters', text: 'Create, watch and delete Kubernetes clusters in your regions.' },
  { name: 'Projects', href: '/arc/projects', text: 'Group clusters and set a default region per project.' },
  { name: 'Notifications', href: '/arc/notifications', text: 'Know when a cluster is ready or a run fails.' },
  { name: 'Settings & API keys', href: '/arc/settings', text: 'Your defaults, theme and region-bound API keys.' },
];

export default async function ArcHome() {
  const me = await arcMe();
  const org = me.organization;
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-medium text-indigo-600 dark:text-indigo-400">Arc{org ? ` · ${org.slug}` : ''}</p>
          <h1 className="text-2xl font-semibold tracking-tight">Your organization&apos;s infrastructure</h1>
        </div>
        {org && (
          <dl className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <div>
              <dt className="text-slate-500">Regions</dt>
              <dd className="font-mono" data-testid="org-regions">
                {org.allowed_regions.join(' ')}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Default region</dt>
              <dd className="font-mono">{org.default_region ?? '—'}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Your role</dt>
              <dd>{me.role}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Project</dt>
              <dd className="font-mono">{me.project?.name ?? '—'}</dd>
            </div>
          </dl>
        )}
      </header>
      <Link
        href="/arc/settings/api-keys"
        className="inline-block text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        API keys →
      </Link>
      <ul className="grid gap-4 sm:grid-cols-2">
        {AREAS.map((a) => (
          <li key={a.name}>
            <Link
              href={a.href}
              className="block h-full rounded-lg border border-slate-200 bg-white p-5 transition-colors hover:border-indigo-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700"
            >
              <h2 className="font-medium">{a.name} →</h2>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{a.text}</p>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
