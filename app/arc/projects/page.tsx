import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { ProjectsManager } from '~/components/arc/projects-manager';

export const metadata: Metadata = { title: 'Projects' };
export const dynamic = 'force-dynamic';

export default async function ProjectsPage() {
  const me = await arcMe();
  const org = me.organization;
  const current = me.project;
  return (
    <div className="space-y-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Projects</h1>
        <p className="max-w-2xl text-sm text-slate-600 dark:text-slate-300">
          Projects group clusters.{' '}
          {(org?.allowed_regions.length ?? 0) > 1
            ? 'The project you use decides, by its default region, where requests that name no region go.'
            : 'The project you use is remembered for this session.'}
        </p>
        <p className="text-sm" data-testid="current-project">
          <span className="text-slate-500 dark:text-slate-400">Current project: </span>
          <span className="font-mono font-medium">{current?.name ?? 'none'}</span>
        </p>
      </header>
      <ProjectsManager
        regions={org?.allowed_regions ?? []}
        orgDefaultRegion={org?.default_region ?? null}
        currentProjectId={current?.id ?? null}
      />
    </div>
  );
}
