// /arc: the organization at a glance (regions, defaults, role, project) and the ways into Arc. A
// platform operator with no organization lands on Atlas instead (every sign-in's default is /arc).
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { arcMe } from '~/app/arc/me';
import { Fact } from '~/components/ui/fact';
import { PageHeader } from '~/components/ui/page-header';
import { card, focusRing, link } from '~/components/ui/styles';

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
  if (!org && me.user?.platform_operator) redirect('/atlas');
  return (
    <div className="space-y-6">
      <PageHeader
        eyebrow={`Arc${org ? ` · ${org.slug}` : ''}`}
        title="Your organization's infrastructure"
        actions={
          org && (
            <dl className="flex flex-wrap gap-x-6 gap-y-2">
              <Fact label="Regions" testId="org-regions">
                <span className="font-mono">{org.allowed_regions.join(' ')}</span>
              </Fact>
              <Fact label="Default region">
                <span className="font-mono">{org.default_region ?? '—'}</span>
              </Fact>
              <Fact label="Your role">{me.role}</Fact>
              <Fact label="Project">
                <span className="font-mono">{me.project?.name ?? '—'}</span>
              </Fact>
            </dl>
          )
        }
      />
      <Link href="/arc/settings/api-keys" className={`${link} inline-block text-sm`}>
        API keys →
      </Link>
      <ul className="grid gap-4 sm:grid-cols-2">
        {AREAS.map((a) => (
          <li key={a.name}>
            <Link
              href={a.href}
              className={`${card} block h-full p-5 transition-colors hover:border-indigo-300 dark:hover:border-indigo-700 ${focusRing}`}
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
