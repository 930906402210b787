'use client';
// The create-cluster form, starting from the server's values (useClusterDraft); a region picker
// only for organizations with several regions. Submits through a server action.
import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { createCluster } from '~/server/api/actions/clusters';
import { errorToast, trpcErrorBody, useToast } from '../../../toast';
import { useTRPC } from '../../../trpc-provider';
import { ErrorAlert } from '../../../ui/error-alert';
import { SelectField } from '../../../ui/select-field';
import { btnPrimary, btnSecondary, card } from '../../../ui/styles';
import { TextField } from '../../../ui/text-field';
import { fieldErrors } from '../../action-errors';
import { CapacityWarning } from './capacity-warning';
import { CreateFormSkeleton } from './create-form-skeleton';
import { NoProjectsNotice } from './no-projects-notice';
import { RegionPicker } from './region-picker';
import { TemplatePicker } from './template-picker';
import { useClusterDraft } from './use-cluster-draft';

const REGION_ERRORS = [
  'region_required',
  'region_not_allowed',
  'invalid_region',
  'insufficient_capacity',
  'region_draining',
];

export function ClusterCreateForm({
  regions,
  currentProjectId,
}: {
  regions: string[];
  currentProjectId: string | null;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const { toast } = useToast();
  const draft = useClusterDraft();
  const { template, nodeCount, region } = draft;
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, startTransition] = useTransition();
  const multiRegion = regions.length > 1;
  const free = template && region ? template.capacity[region] : undefined;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!template) return;
    setErrors({});
    // Several regions: always say which. One region: leave it to the cascade, unless the cascade
    // would find nothing by itself (the region is only the first allowed one).
    const sendRegion = (multiRegion || draft.regionSource === 'first-allowed') && region !== '';
    const body = {
      name: name.trim(),
      project_id: draft.projectId,
      template: template.id,
      node_count: nodeCount,
      ...(draft.version ? { version: draft.version as Parameters<typeof createCluster>[0]['version'] } : {}),
      ...(sendRegion ? { region } : {}),
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
      // Without a region field, a region problem is about how many nodes fit.
      if (REGION_ERRORS.includes(res.error.code)) fields[multiRegion ? 'region' : 'node_count'] ??= res.error.message;
      if (res.error.code === 'conflict') fields.name ??= res.error.message;
      setErrors(fields);
      toast(errorToast('Could not create the cluster', res.error));
    });
  };

  if (draft.loading) return <CreateFormSkeleton />;
  if (draft.error) {
    const err = trpcErrorBody(draft.error);
    return <ErrorAlert requestId={err.request_id}>Could not load the form: {err.message}</ErrorAlert>;
  }
  if (draft.projects.length === 0) return <NoProjectsNotice />;

  return (
    <form onSubmit={submit} noValidate className={`${card} space-y-6 p-4 sm:p-6`}>
      <div className="grid gap-5 md:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          placeholder="web-prod"
          hint="Lowercase letters, digits and dashes, starting with a letter."
          error={errors.name}
          inputClassName="font-mono"
        />
        <SelectField
          label="Project"
          name="project_id"
          value={draft.projectId}
          onChange={(e) => draft.choose.project(e.target.value)}
          error={errors.project_id}
        >
          {draft.projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
              {p.id === currentProjectId ? ' (current)' : ''}
            </option>
          ))}
        </SelectField>
      </div>

      <TemplatePicker
        templates={draft.templates}
        value={template?.id}
        onChange={draft.choose.template}
        error={errors.template}
      />

      <div className="grid gap-5 md:grid-cols-3">
        <TextField
          label="Nodes"
          name="node_count"
          type="number"
          inputMode="numeric"
          min={template?.min_nodes}
          max={template?.max_nodes}
          value={nodeCount}
          onChange={(e) => draft.choose.nodes(e.target.value === '' ? 0 : Number(e.target.value))}
          hint={
            template
              ? `${template.min_nodes}–${template.max_nodes} for ${template.label}${
                  free !== undefined ? `; ${free} free${multiRegion ? ` in ${region}` : ''}` : ''
                }.`
              : undefined
          }
          error={errors.node_count}
          inputClassName="tabular-nums"
        />
        <SelectField
          label="Kubernetes version"
          name="version"
          value={draft.version ?? ''}
          onChange={(e) => draft.choose.version(e.target.value)}
          error={errors.version}
        >
          {template?.versions.map((v) => (
            <option key={v} value={v}>
              {v}
              {v === template.default_version ? ' (default)' : ''}
            </option>
          ))}
        </SelectField>
        {multiRegion && (
          <RegionPicker
            regions={regions}
            value={region}
            onChange={draft.choose.region}
            source={draft.regionSource}
            projectName={draft.defaultsProjectName}
            capacity={template?.capacity}
            error={errors.region}
          />
        )}
      </div>

      {free !== undefined && free < nodeCount && (
        <CapacityWarning region={region} free={free} nodeCount={nodeCount} gpu={!!template?.gpu} />
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
