'use client';
// Projects: the list, a create form, each project's default region (both optimistic), "Use this
// project", which makes it the session's project and so its default region the cascade's, and a
// delete (confirmed; refused with the reason while the project holds live clusters).
import { useQueryClient } from '@tanstack/react-query';
import { useSession } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { deleteProject, setProjectRegion } from '~/server/api/actions/projects';
import { errorToast, useToast } from '../../toast';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { EmptyState } from '../../ui/empty-state';
import { SkeletonRows } from '../../ui/skeleton';
import { btnDanger, card } from '../../ui/styles';
import { useDialogAction } from '../../ui/use-dialog-action';
import { NewProjectForm } from './new-project-form';
import { ProjectRow } from './project-row';
import { useProjectsCache, type Project } from './use-projects-cache';

export function ProjectsManager({
  regions,
  orgDefaultRegion,
  currentProjectId,
  canDelete,
}: {
  regions: string[];
  orgDefaultRegion: string | null;
  currentProjectId: string | null;
  /** Members and admins: a viewer sees no delete. */
  canDelete: boolean;
}) {
  const qc = useQueryClient();
  const router = useRouter();
  const { toast } = useToast();
  // update() does nothing while the session is still loading: the buttons wait for it.
  const { update, status: sessionStatus } = useSession();
  const projects = useProjectsCache();
  const [switching, setSwitching] = useState<string | null>(null);
  const deleteDialog = useRef<HTMLDialogElement>(null);
  const [doomed, setDoomed] = useState<Project | null>(null);
  const [deleting, confirmDelete] = useDialogAction(deleteDialog, () => deleteProject({ id: doomed!.id }), {
    failure: `Could not delete ${doomed?.name ?? 'the project'}`,
    onDone: (p) => {
      toast({ kind: 'success', title: `Project ${p.name} deleted` });
      void projects.refresh();
      if (p.id === currentProjectId) router.refresh(); // the session uses no project now
    },
  });

  const changeRegion = (p: Project, region: string | null) => {
    const before = p.default_region;
    const put = (value: string | null) =>
      projects.edit((list) => list.map((x) => (x.id === p.id ? { ...x, default_region: value } : x)));
    put(region);
    void setProjectRegion({ id: p.id, default_region: region }).then(async (res) => {
      if (res.ok) {
        toast({ kind: 'success', title: `${p.name}: default region ${res.data.default_region ?? 'none'}` });
      } else {
        put(before);
        toast(errorToast(`Could not change ${p.name}’s default region`, res.error));
      }
      await projects.refresh();
      if (p.id === currentProjectId) router.refresh(); // the session's project routes by it
    });
  };

  const use = async (projectId: string | null) => {
    setSwitching(projectId ?? 'none');
    try {
      await update({ projectId });
      await qc.invalidateQueries();
      router.refresh();
    } finally {
      setSwitching(null);
    }
  };

  const rows = [...(projects.query.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <div className="space-y-6">
      <NewProjectForm regions={regions} />
      <div className={card}>
        {projects.query.isPending ? (
          <SkeletonRows rows={3} label="Loading projects…" />
        ) : rows.length === 0 ? (
          <EmptyState title="No projects yet">Projects group clusters and can carry a default region.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Projects">
            {rows.map((p) => (
              <ProjectRow
                key={p.id}
                project={p}
                current={p.id === currentProjectId}
                regions={regions}
                orgDefaultRegion={orgDefaultRegion}
                switching={switching}
                canSwitch={sessionStatus !== 'loading'}
                onUse={(id) => void use(id)}
                onChangeRegion={(region) => changeRegion(p, region)}
                onDelete={
                  canDelete
                    ? () => {
                        setDoomed(p);
                        deleteDialog.current?.showModal();
                      }
                    : undefined
                }
              />
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        ref={deleteDialog}
        id="delete-project-dialog"
        title={`Delete project ${doomed?.name ?? ''}?`}
        confirmLabel="Delete project"
        busy={deleting}
        busyLabel="Deleting…"
        confirmClassName={btnDanger}
        onConfirm={confirmDelete}
      >
        <p>
          Only a project with no live cluster can be deleted. Its name is free again; its deleted clusters keep their
          history.
        </p>
      </ConfirmDialog>
    </div>
  );
}
