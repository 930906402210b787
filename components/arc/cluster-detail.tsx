'use client';
// One cluster: its fields and status, the live progress of its latest run (create or delete),
// its kubeconfig once it is ready (copy or download), and deletion behind a confirmation.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useCallback, useRef, useState, useTransition } from 'react';
import { deleteCluster } from '~/app/arc/clusters/actions';
import { fullDate, timeAgo } from '../format';
import { errorToast, trpcErrorBody, useToast } from '../toast';
import { useTRPC } from '../trpc-provider';
import { Breadcrumb } from '../ui/breadcrumb';
import { CopyButton } from '../ui/copy-button';
import { EmptyState } from '../ui/empty-state';
import { Skeleton } from '../ui/skeleton';
import { IN_PROGRESS, StatusBadge } from '../ui/status-badge';
import { btnDanger, btnDangerOutline, btnPrimary, btnSecondary, card } from '../ui/styles';
import { RunProgress } from './run-progress';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function download(filename: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function ClusterDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [deleteRunId, setDeleteRunId] = useState<string | null>(null);
  const cluster = useQuery(
    trpc.compute.clusters.get.queryOptions(
      { id },
      {
        refetchInterval: (q) =>
          q.state.status !== 'error' && q.state.data && IN_PROGRESS.has(q.state.data.status) ? 2_000 : false,
        retry: (n, e) => trpcErrorBody(e).code !== 'not_found' && n < 2,
      },
    ),
  );
  const projects = useQuery(trpc.projects.list.queryOptions({ limit: 200 }));
  const [kubeconfig, setKubeconfig] = useState<string | null>(null);
  const [fetchingKube, setFetchingKube] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const [deleting, startDelete] = useTransition();

  const c = cluster.data;
  const runId = deleteRunId ?? c?.latest_run_id ?? null;
  const onRunFinished = useCallback(() => {
    void qc.invalidateQueries(trpc.compute.clusters.get.queryFilter({ id }));
    void qc.invalidateQueries(trpc.compute.clusters.list.pathFilter());
    void qc.invalidateQueries(trpc.notifications.pathFilter());
  }, [qc, trpc, id]);

  const getKubeconfig = async () => {
    if (!c) return;
    setFetchingKube(true);
    try {
      const res = await qc.fetchQuery(
        trpc.compute.clusters.kubeconfig.queryOptions({ id }, { staleTime: 0, gcTime: 0 }),
      );
      setKubeconfig(res.kubeconfig);
      download(`${c.name}.kubeconfig.yaml`, res.kubeconfig);
    } catch (e) {
      toast(errorToast('Could not get the kubeconfig', trpcErrorBody(e)));
    } finally {
      setFetchingKube(false);
    }
  };

  const confirmDelete = () =>
    startDelete(async () => {
      const res = await deleteCluster({ id });
      dialog.current?.close();
      if (!res.ok) {
        toast(errorToast('Could not delete the cluster', res.error));
        return;
      }
      setDeleteRunId(res.data.run_id);
      setKubeconfig(null);
      qc.setQueryData(trpc.compute.clusters.get.queryKey({ id }), (old) =>
        old ? { ...old, ...res.data.cluster, latest_run_id: res.data.run_id } : old,
      );
      void qc.invalidateQueries(trpc.compute.clusters.list.pathFilter());
      toast({ kind: 'info', title: `Deleting ${res.data.cluster.name}`, message: 'Its servers are being released.' });
    });

  if (cluster.isPending) {
    return (
      <div role="status" className="space-y-6">
        <span className="sr-only">Loading the cluster…</span>
        <Skeleton className="h-8 w-72" />
        <div className={`${card} grid gap-4 p-5 sm:grid-cols-3`}>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-10" />
          ))}
        </div>
        <Skeleton className="h-64" />
      </div>
    );
  }

  // A cluster deleted while the page was open answers not_found: its last data is stale.
  const e = trpcErrorBody(cluster.error);
  const gone = e.code === 'not_found';
  if (!c || gone) {
    return (
      <div className="space-y-6">
        <div className={card}>
          <EmptyState
            title={gone ? (deleteRunId ? 'This cluster was deleted' : 'No such cluster') : 'Could not load the cluster'}
            action={
              <Link href="/arc/clusters" className={btnSecondary}>
                Back to clusters
              </Link>
            }
          >
            {gone ? (
              <span>
                <code className="font-mono">{id}</code> is not one of your organization’s clusters (any more).
              </span>
            ) : (
              <span>
                {e.message}
                {e.request_id && <span className="ml-1 font-mono text-xs">({e.request_id})</span>}
              </span>
            )}
          </EmptyState>
        </div>
        {deleteRunId && <RunProgress runId={deleteRunId} />}
      </div>
    );
  }

  const projectName = projects.data?.data.find((p) => p.id === c.project_id)?.name;
  const deletable = c.status === 'ready' || c.status === 'failed';
  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <Breadcrumb up={{ href: '/arc/clusters', label: 'Clusters' }} current={c.name} />
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0 space-y-1">
            <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
              <span className="break-all font-mono">{c.name}</span>
              <span data-testid="cluster-status">
                <StatusBadge status={c.status} className="text-sm" />
              </span>
            </h1>
            <p className="flex items-center gap-1.5 text-sm text-slate-500 dark:text-slate-400">
              <code className="truncate font-mono text-xs">{c.id}</code>
              <CopyButton value={c.id} label="Copy cluster ID" compact />
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            {c.status === 'ready' && (
              <button type="button" className={btnPrimary} onClick={() => void getKubeconfig()} disabled={fetchingKube}>
                <svg aria-hidden viewBox="0 0 16 16" className="h-4 w-4 fill-none stroke-current stroke-[1.5]">
                  <path d="M8 2v8m0 0L5 7m3 3l3-3M3 12.5h10" />
                </svg>
                {fetchingKube ? 'Fetching…' : 'Download kubeconfig'}
              </button>
            )}
            <button
              type="button"
              className={btnDangerOutline}
              disabled={!deletable || deleting}
              title={deletable ? undefined : `A ${c.status} cluster cannot be deleted yet`}
              onClick={() => dialog.current?.showModal()}
            >
              Delete cluster
            </button>
          </div>
        </div>
        {c.status_reason && (
          <p className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:border-rose-900 dark:bg-rose-950/60 dark:text-rose-200">
            {c.status_reason}
          </p>
        )}
      </header>

      <dl className={`${card} grid grid-cols-2 gap-4 p-4 sm:grid-cols-3 sm:p-5 lg:grid-cols-4`}>
        <Field label="Region">
          <span className="font-mono">{c.region}</span>
        </Field>
        <Field label="Project">
          <span className="flex items-center gap-1.5">
            <span className="truncate">{projectName ?? c.project_id}</span>
          </span>
        </Field>
        <Field label="Template">
          <span className="font-mono">{c.template}</span>
        </Field>
        <Field label="Nodes">
          <span className="tabular-nums">{c.node_count}</span>
        </Field>
        <Field label="Kubernetes">
          <span className="font-mono">{c.version}</span>
        </Field>
        <Field label="Created">
          <span title={fullDate(c.created_at)}>{timeAgo(c.created_at)}</span>
        </Field>
        <Field label="Ready since">
          {c.ready_at ? <span title={fullDate(c.ready_at)}>{timeAgo(c.ready_at)}</span> : '—'}
        </Field>
        <Field label="Updated">
          <span title={fullDate(c.updated_at)}>{timeAgo(c.updated_at)}</span>
        </Field>
      </dl>

      {kubeconfig && c.status === 'ready' && (
        <section className={`${card} space-y-3 p-4 sm:p-5`} aria-labelledby="kubeconfig-heading">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="kubeconfig-heading" className="font-medium">
              Kubeconfig
            </h2>
            <div className="flex gap-2">
              <CopyButton value={kubeconfig} label="Copy kubeconfig" className="px-2.5 py-1.5" />
              <button
                type="button"
                className={btnSecondary}
                onClick={() => download(`${c.name}.kubeconfig.yaml`, kubeconfig)}
              >
                Save as file
              </button>
              <button type="button" className={btnSecondary} onClick={() => setKubeconfig(null)}>
                Hide
              </button>
            </div>
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Treat it like a password: it grants admin access to the cluster. Use it with{' '}
            <code className="font-mono">KUBECONFIG={c.name}.kubeconfig.yaml kubectl get nodes</code>.
          </p>
          <pre
            data-testid="kubeconfig"
            className="max-h-72 overflow-auto rounded-md bg-slate-950 p-3 font-mono text-xs leading-relaxed text-slate-100"
          >
            {kubeconfig}
          </pre>
        </section>
      )}

      {runId ? (
        <RunProgress key={runId} runId={runId} onFinished={onRunFinished} />
      ) : (
        <div className={`${card} p-5 text-sm text-slate-500 dark:text-slate-400`}>
          This cluster has no workflow runs.
        </div>
      )}

      <dialog
        ref={dialog}
        aria-labelledby="delete-title"
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <form
          method="dialog"
          className="space-y-4 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            confirmDelete();
          }}
        >
          <h2 id="delete-title" className="text-lg font-semibold">
            Delete {c.name}?
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Its workloads are drained, its {c.node_count} {c.node_count === 1 ? 'server is' : 'servers are'} released in{' '}
            <span className="font-mono">{c.region}</span> and its kubeconfig stops working. This cannot be undone.
          </p>
          <div className="flex justify-end gap-2">
            <button type="button" className={btnSecondary} onClick={() => dialog.current?.close()} autoFocus>
              Cancel
            </button>
            <button type="submit" className={btnDanger} disabled={deleting}>
              {deleting ? 'Deleting…' : 'Delete'}
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
