// /arc/projects: the organization's projects and which one this session uses.
import type { Metadata } from 'next';
import { arcMe } from '~/app/arc/me';
import { ProjectsManager } from '~/components/arc/projects/projects-manager';
import { PageHeader } from '~/components/ui/page-header';

export const metadata: Metadata = { title: 'Projects' };
export const dynamic = 'force-dynamic';

export default async function ProjectsPage() {
  const me = await arcMe();
  const org = me.organization;
  const current = me.project;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Projects"
        description={
          <>
            Projects group clusters.{' '}
            {(org?.allowed_regions.length ?? 0) > 1
              ? 'The project you use decides, by its default region, where requests that name no region go.'
              : 'The project you use is remembered for this session.'}
          </>
        }
      >
        <p className="text-sm" data-testid="current-project">
          <span className="text-slate-500 dark:text-slate-400">Current project: </span>
          <span className="font-mono font-medium">{current?.name ?? 'none'}</span>
        </p>
      </PageHeader>
      <ProjectsManager
        regions={org?.allowed_regions ?? []}
        orgDefaultRegion={org?.default_region ?? null}
        currentProjectId={current?.id ?? null}
        canDelete={me.role !== 'viewer'}
      />
    </div>
  );
}
