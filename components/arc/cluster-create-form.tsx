'use client';
// The create-cluster form. A region picker appears only for organizations with several regions
// (defaulted from the project, then the user's and the organization's default); a single-region
// organization never names one and the cascade picks its region. Submits through a server action.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useState, useTransition } from 'react';
import { createCluster } from '~/app/arc/clusters/actions';
import { errorToast, useToast } from '../toast';
import { useTRPC } from '../trpc-provider';
import { Skeleton } from '../ui/skeleton';
import { btnPrimary, btnSecondary, card, input, link } from '../ui/styles';
import { fieldErrors } from './action-errors';

export interface CreateDefaults {
  regions: string[];
  orgDefaultRegion: string | null;
  userDefaultRegion: string | null;
  currentProjectId: string | null;
}

function FieldHint({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  if (!error && !hint) return null;
  return (
    <span
      id={id}
      className={`block text-xs ${error ? 'text-rose-600 dark:text-rose-400' : 'text-slate-500 dark:text-slate-400'}`}
    >
      {error ?? hint}
    </span>
  );
}

export function ClusterCreateForm({ regions, orgDefaultRegion, userDefaultRegion, currentProjectId }: CreateDefaults) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const { toast } = useToast();
  const uid = useId();
  const multiRegion = regions.length > 1;
  const projects = useQuery(trpc.projects.list.queryOptions({ limit: 200 }));
  const templates = useQuery(trpc.compute.templates.list.queryOptions({}));

  const [name, setName] = useState('');
  const [projectChoice, setProjectChoice] = useState<string | null>(null);
  const [templateChoice, setTemplateChoice] = useState<string | null>(null);
  const [nodeChoice, setNodeChoice] = useState<number | null>(null);
  const [versionChoice, setVersionChoice] = useState<string | null>(null);
  const [regionChoice, setRegionChoice] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, startTransition] = useTransition();

  // Derived defaults, until the user picks: the current project, the standard template, its
  // minimum nodes and default version, and the project's (else the user's, the org's) region.
  const projectList = [...(projects.data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const projectId =
    projectChoice ??
    (projectList.some((p) => p.id === currentProjectId) ? currentProjectId! : (projectList[0]?.id ?? ''));
  const project = projectList.find((p) => p.id === projectId);
  const templateList = templates.data?.data ?? [];
  const template =
    templateList.find((t) => t.id === templateChoice) ??
    templateList.find((t) => t.id === 'k8s-standard') ??
    templateList[0];
  const nodeCount = nodeChoice ?? template?.min_nodes ?? 1;
  const version =
    versionChoice && template?.versions.includes(versionChoice) ? versionChoice : template?.default_version;
  const allowed = (r: string | null | undefined): r is string => !!r && regions.includes(r);
  const region =
    regionChoice ?? [project?.default_region, userDefaultRegion, orgDefaultRegion, regions[0]].find(allowed) ?? '';
  const regionSource =
    regionChoice !== null
      ? null
      : allowed(project?.default_region)
        ? `the default of project ${project!.name}`
        : allowed(userDefaultRegion)
          ? 'your default region'
          : allowed(orgDefaultRegion)
            ? 'your organization’s default region'
            : null;
  const free = template && region ? template.capacity[region] : undefined;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!template) return;
    setErrors({});
    const body = {
      name: name.trim(),
      project_id: projectId,
      template: template.id,
      node_count: nodeCount,
      ...(version ? { version: version as Parameters<typeof createCluster>[0]['version'] } : {}),
      // Several regions: always say which. One region: the cascade knows (send it only when the
      // organization has no default to fall back on).
      ...(multiRegion ? { region } : !orgDefaultRegion && regions[0] ? { region: regions[0] } : {}),
    };
    startTransition(async () => {
      const res = await createCluster(body);
      if (res.ok) {
        toast({
          kind: 'success',
          title: `Cluster ${res.data.cluster.name} is on its way`,
          message: `Provisioning in ${res.data.cluster.region}.`,
        });
        void qc.invalidateQueries(trpc.compute.pathFilter());
        router.push(`/arc/clusters/${res.data.cluster.id}`);
        return;
      }
      const fields = fieldErrors(res.error);
      if (
        ['region_required', 'region_not_allowed', 'invalid_region', 'insufficient_capacity'].includes(res.error.code)
      ) {
        fields[multiRegion ? 'region' : 'node_count'] ??= res.error.message;
      }
      if (res.error.code === 'conflict') fields.name ??= res.error.message;
      setErrors(fields);
      toast(errorToast('Could not create the cluster', res.error));
    });
  };

  const loading = projects.isPending || templates.isPending;
  if (loading) {
    return (
      <div role="status" className={`${card} space-y-4 p-5`}>
        <span className="sr-only">Loading the form…</span>
        <Skeleton className="h-9 w-full max-w-sm" />
        <Skeleton className="h-9 w-full max-w-sm" />
        <div className="grid gap-3 sm:grid-cols-3">
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
          <Skeleton className="h-28" />
        </div>
      </div>
    );
  }
  if (projectList.length === 0) {
    return (
      <div className={`${card} p-5 text-sm`}>
        A cluster belongs to a project, and your organization has none yet.{' '}
        <Link href="/arc/projects" className={link}>
          Create a project
        </Link>{' '}
        first.
      </div>
    );
  }

  const fieldId = (field: string) => `${uid}-${field}`;
  const describedBy = (field: string) => `${uid}-${field}-hint`;
  return (
    <form onSubmit={submit} noValidate className={`${card} space-y-6 p-4 sm:p-6`}>
      <div className="grid gap-5 md:grid-cols-2">
        <div className="space-y-1.5">
          <label htmlFor={fieldId('name')} className="block text-sm font-medium">
            Name
          </label>
          <input
            name="name"
            id={fieldId('name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={40}
            autoComplete="off"
            spellCheck={false}
            placeholder="web-prod"
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('name')}
            className={`${input} font-mono`}
          />
          <FieldHint
            id={describedBy('name')}
            error={errors.name}
            hint="Lowercase letters, digits and dashes, starting with a letter."
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={fieldId('project_id')} className="block text-sm font-medium">
            Project
          </label>
          <select
            name="project_id"
            id={fieldId('project_id')}
            value={projectId}
            onChange={(e) => setProjectChoice(e.target.value)}
            aria-invalid={errors.project_id ? true : undefined}
            aria-describedby={describedBy('project_id')}
            className={input}
          >
            {projectList.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.id === currentProjectId ? ' (current)' : ''}
              </option>
            ))}
          </select>
          <FieldHint id={describedBy('project_id')} error={errors.project_id} />
        </div>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Template</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {templateList.map((t) => {
            const checked = t.id === template?.id;
            return (
              <label
                key={t.id}
                className={`relative flex cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500 ${
                  checked
                    ? 'border-indigo-500 bg-indigo-50/60 ring-1 ring-indigo-500 dark:bg-indigo-950/40'
                    : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-600'
                }`}
              >
                <input
                  type="radio"
                  name="template"
                  value={t.id}
                  checked={checked}
                  onChange={() => {
                    setTemplateChoice(t.id);
                    setNodeChoice(null);
                  }}
                  className="sr-only"
                />
                <span className="flex items-center justify-between gap-2">
                  <span className="font-medium">{t.label}</span>
                  {t.gpu && (
                    <span className="rounded bg-violet-100 px-1.5 py-0.5 text-[11px] font-medium text-violet-800 dark:bg-violet-950 dark:text-violet-300">
                      GPU
                    </span>
                  )}
                </span>
                <span className="text-xs text-slate-600 dark:text-slate-400">{t.description}</span>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {t.min_nodes}–{t.max_nodes} nodes · <span className="font-mono">{t.id}</span>
                </span>
                <span className="mt-1 flex flex-wrap gap-1.5">
                  {Object.entries(t.capacity).map(([r, n]) => (
                    <span
                      key={r}
                      className={`rounded px-1.5 py-0.5 font-mono text-[11px] ${
                        n === 0
                          ? 'bg-rose-50 text-rose-700 dark:bg-rose-950/60 dark:text-rose-300'
                          : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300'
                      }`}
                      title={`${n} nodes free in ${r}`}
                    >
                      {r} {n} free
                    </span>
                  ))}
                </span>
              </label>
            );
          })}
        </div>
        <FieldHint id={describedBy('template')} error={errors.template} />
      </fieldset>

      <div className="grid gap-5 md:grid-cols-3">
        <div className="space-y-1.5">
          <label htmlFor={fieldId('node_count')} className="block text-sm font-medium">
            Nodes
          </label>
          <input
            name="node_count"
            id={fieldId('node_count')}
            type="number"
            inputMode="numeric"
            min={template?.min_nodes}
            max={template?.max_nodes}
            value={nodeCount}
            onChange={(e) => setNodeChoice(e.target.value === '' ? 0 : Number(e.target.value))}
            aria-invalid={errors.node_count ? true : undefined}
            aria-describedby={describedBy('node_count')}
            className={`${input} tabular-nums`}
          />
          <FieldHint
            id={describedBy('node_count')}
            error={errors.node_count}
            hint={
              template
                ? `${template.min_nodes}–${template.max_nodes} for ${template.label}${
                    free !== undefined ? `; ${free} free${multiRegion ? ` in ${region}` : ''}` : ''
                  }.`
                : undefined
            }
          />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={fieldId('version')} className="block text-sm font-medium">
            Kubernetes version
          </label>
          <select
            name="version"
            id={fieldId('version')}
            value={version ?? ''}
            onChange={(e) => setVersionChoice(e.target.value)}
            aria-invalid={errors.version ? true : undefined}
            aria-describedby={describedBy('version')}
            className={input}
          >
            {template?.versions.map((v) => (
              <option key={v} value={v}>
                {v}
                {v === template.default_version ? ' (default)' : ''}
              </option>
            ))}
          </select>
          <FieldHint id={describedBy('version')} error={errors.version} />
        </div>
        {multiRegion && (
          <div className="space-y-1.5">
            <label htmlFor={fieldId('region')} className="block text-sm font-medium">
              Region
            </label>
            <select
              name="region"
              id={fieldId('region')}
              value={region}
              onChange={(e) => setRegionChoice(e.target.value)}
              aria-invalid={errors.region ? true : undefined}
              aria-describedby={describedBy('region')}
              className={`${input} font-mono`}
            >
              {regions.map((r) => (
                <option key={r} value={r}>
                  {r}
                  {template ? ` — ${template.capacity[r] ?? 0} free` : ''}
                </option>
              ))}
            </select>
            <FieldHint
              id={describedBy('region')}
              error={errors.region}
              hint={regionSource ? `From ${regionSource}.` : 'Where the cluster and its servers live.'}
            />
          </div>
        )}
      </div>

      {free !== undefined && free < nodeCount && (
        <p
          role="status"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200"
        >
          {region} has {free} {template?.gpu ? 'GPU' : 'CPU'} servers free right now: fewer than the {nodeCount} nodes
          asked for.
        </p>
      )}

      <div className="flex flex-wrap items-center justify-end gap-3 border-t border-slate-100 pt-4 dark:border-slate-800">
        <Link href="/arc/clusters" className={btnSecondary}>
          Cancel
        </Link>
        <button type="submit" disabled={pending || !template || name.trim() === ''} className={btnPrimary}>
          {pending && (
            <span
              aria-hidden
              className="h-3.5 w-3.5 rounded-full border-2 border-white/40 border-t-white motion-safe:animate-spin"
            />
          )}
          {pending ? 'Creating…' : 'Create cluster'}
        </button>
      </div>
    </form>
  );
}
