'use client';
// Projects: the list, a create form (server action, inserted optimistically), each project's
// default region (changed in place, optimistically), and "Use this project", which makes it the
// session's current project: its default region then decides where requests that name none resolve.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useId, useRef, useState, useTransition } from 'react';
import { createProject, setProjectRegion } from '~/app/arc/projects/actions';
import { fullDate, timeAgo } from '../format';
import { errorToast, useToast } from '../toast';
import { useTRPC, type RouterOutputs } from '../trpc-provider';
import { CopyButton } from '../ui/copy-button';
import { EmptyState } from '../ui/empty-state';
import { SkeletonRows } from '../ui/skeleton';
import { btnPrimary, btnSecondary, card, input } from '../ui/styles';
import { fieldErrors } from './action-errors';
import { RegionOptions } from '../ui/region-options';

type Project = RouterOutputs['projects']['list']['data'][number];

const LIST_INPUT = { limit: 200 };

export function ProjectsManager({
  regions,
  orgDefaultRegion,
  currentProjectId,
}: {
  regions: string[];
  orgDefaultRegion: string | null;
  currentProjectId: string | null;
}) {
  const trpc = useTRPC();
  const uid = useId();
  const fid = (field: string) => `${uid}-${field}`;
  const qc = useQueryClient();
  const router = useRouter();
  const { toast } = useToast();
  // update() does nothing while the session is still loading: the buttons wait for it.
  const { update, status: sessionStatus } = useSession();
  const projects = useQuery(trpc.projects.list.queryOptions(LIST_INPUT));
  const [name, setName] = useState('');
  const [defaultRegion, setDefaultRegion] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [creating, startCreate] = useTransition();
  const [switching, setSwitching] = useState<string | null>(null);
  const multiRegion = regions.length > 1;
  const listKey = trpc.projects.list.queryKey(LIST_INPUT);
  const optimisticSeq = useRef(0);

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    setErrors({});
    const input = { name: name.trim(), ...(multiRegion && defaultRegion ? { default_region: defaultRegion } : {}) };
    const tempId = `optimistic-${++optimisticSeq.current}`;
    const temp: Project = {
      id: tempId,
      name: input.name,
      default_region: input.default_region ?? null,
      created_at: new Date().toISOString(),
    };
    qc.setQueryData(listKey, (old) => (old ? { ...old, data: [...old.data, temp] } : old));
    startCreate(async () => {
      const res = await createProject(input);
      if (res.ok) {
        qc.setQueryData(listKey, (old) =>
          old ? { ...old, data: old.data.map((p) => (p.id === tempId ? res.data : p)) } : old,
        );
        setName('');
        setDefaultRegion('');
        toast({ kind: 'success', title: `Project ${res.data.name} created` });
      } else {
        qc.setQueryData(listKey, (old) => (old ? { ...old, data: old.data.filter((p) => p.id !== tempId) } : old));
        setErrors(fieldErrors(res.error));
        toast(errorToast('Could not create the project', res.error));
      }
      await qc.invalidateQueries(trpc.projects.list.pathFilter());
    });
  };

  const changeRegion = (p: Project, region: string | null) => {
    const before = p.default_region;
    const put = (value: string | null) =>
      qc.setQueryData(listKey, (old) =>
        old ? { ...old, data: old.data.map((x) => (x.id === p.id ? { ...x, default_region: value } : x)) } : old,
      );
    put(region);
    void setProjectRegion({ id: p.id, default_region: region }).then(async (res) => {
      if (res.ok) {
        toast({ kind: 'success', title: `${p.name}: default region ${res.data.default_region ?? 'none'}` });
      } else {
        put(before);
        toast(errorToast(`Could not change ${p.name}’s default region`, res.error));
      }
      await qc.invalidateQueries(trpc.projects.list.pathFilter());
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

  const rows = [...(projects.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <div className="space-y-6">
      <form onSubmit={create} noValidate className={`${card} space-y-4 p-4 sm:p-5`} aria-labelledby="new-project">
        <h2 id="new-project" className="font-medium">
          New project
        </h2>
        <div className="flex flex-wrap items-start gap-3">
          <div className="w-full space-y-1 sm:w-64">
            <label htmlFor={fid('name')} className="block text-sm font-medium">
              Name
            </label>
            <input
              id={fid('name')}
              name="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={63}
              pattern="[a-z0-9][a-z0-9\-]*"
              placeholder="payments"
              autoComplete="off"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby="project-name-help"
              className={`${input} font-mono`}
            />
            <span
              id="project-name-help"
              className={`block text-xs ${errors.name ? 'text-rose-600 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400'}`}
            >
              {errors.name ?? 'Lowercase letters, digits and dashes.'}
            </span>
          </div>
          {multiRegion && (
            <div className="w-full space-y-1 sm:w-56">
              <label htmlFor={fid('default_region')} className="block text-sm font-medium">
                Default region
              </label>
              <select
                id={fid('default_region')}
                name="default_region"
                value={defaultRegion}
                onChange={(e) => setDefaultRegion(e.target.value)}
                aria-invalid={errors.default_region ? true : undefined}
                className={input}
              >
                <option value="">None (ask each time)</option>
                <RegionOptions regions={regions} />
              </select>
              <span className="block text-xs text-slate-500 dark:text-slate-400">
                {errors.default_region ?? 'Where its requests go when they name no region.'}
              </span>
            </div>
          )}
          <button type="submit" disabled={creating || name.trim() === ''} className={`${btnPrimary} sm:mt-6`}>
            {creating ? 'Creating…' : 'Create project'}
          </button>
        </div>
      </form>

      <div className={card}>
        {projects.isPending ? (
          <SkeletonRows rows={3} label="Loading projects…" />
        ) : rows.length === 0 ? (
          <EmptyState title="No projects yet">Projects group clusters and can carry a default region.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Projects">
            {rows.map((p) => {
              const current = p.id === currentProjectId;
              const optimistic = p.id.startsWith('optimistic-');
              return (
                <li
                  key={p.id}
                  data-testid="project-row"
                  aria-busy={optimistic || undefined}
                  className={`flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 ${optimistic ? 'opacity-60' : ''}`}
                >
                  <div className="min-w-0 flex-1 space-y-0.5">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-mono font-medium">{p.name}</span>
                      {current && (
                        <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-600/20 dark:bg-indigo-950 dark:text-indigo-300 dark:ring-indigo-400/30">
                          Current
                        </span>
                      )}
                    </p>
                    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
                      {multiRegion && (
                        <label className="flex items-center gap-1">
                          Default region
                          <select
                            aria-label={`Default region of ${p.name}`}
                            value={p.default_region ?? ''}
                            disabled={optimistic}
                            onChange={(e) => changeRegion(p, e.target.value || null)}
                            className="rounded border border-slate-300 bg-transparent px-1 py-0.5 font-mono text-xs dark:border-slate-700 dark:bg-slate-900"
                          >
                            <option value="">
                              {orgDefaultRegion ? `${orgDefaultRegion} (organization’s)` : 'none'}
                            </option>
                            <RegionOptions regions={regions} />
                          </select>
                        </label>
                      )}
                      {!optimistic && (
                        <span className="flex items-center gap-1">
                          <code className="font-mono">{p.id}</code>
                          <CopyButton value={p.id} label={`Copy ID of ${p.name}`} compact />
                        </span>
                      )}
                      <span title={fullDate(p.created_at)}>created {timeAgo(p.created_at)}</span>
                    </p>
                  </div>
                  {!optimistic &&
                    (current ? (
                      <button
                        type="button"
                        className={btnSecondary}
                        disabled={switching !== null || sessionStatus === 'loading'}
                        onClick={() => void use(null)}
                      >
                        {switching === 'none' ? 'Clearing…' : 'Stop using'}
                      </button>
                    ) : (
                      <button
                        type="button"
                        className={btnSecondary}
                        disabled={switching !== null || sessionStatus === 'loading'}
                        aria-label={`Use project ${p.name}`}
                        onClick={() => void use(p.id)}
                      >
                        {switching === p.id ? 'Switching…' : 'Use this project'}
                      </button>
                    ))}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </div>
  );
}
