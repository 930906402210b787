'use client';
// One cluster: its fields, the live progress of its latest run, its kubeconfig once ready, and
// deletion behind a confirmation; polls every 2 s while the cluster is changing state.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { IN_PROGRESS_STATUSES } from '~/lib/cluster-status';
import { trpcErrorBody } from '../../../toast';
import { useTRPC } from '../../../trpc-provider';
import { card } from '../../../ui/styles';
import { RunProgress } from '../../run-progress';
import { ClusterDetailSkeleton } from './cluster-detail-skeleton';
import { ClusterFacts } from './cluster-facts';
import { ClusterHeader } from './cluster-header';
import { ClusterUnavailable } from './cluster-unavailable';
import { DeleteClusterDialog } from './delete-cluster-dialog';
import { KubeconfigPanel } from './kubeconfig-panel';
import { useKubeconfig } from './use-kubeconfig';

export function ClusterDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [deleteRunId, setDeleteRunId] = useState<string | null>(null);
  const cluster = useQuery(
    trpc.compute.clusters.get.queryOptions(
      { id },
      {
        refetchInterval: (q) =>
          q.state.status !== 'error' && q.state.data && IN_PROGRESS_STATUSES.has(q.state.data.status) ? 2_000 : false,
        retry: (n, e) => trpcErrorBody(e).code !== 'not_found' && n < 2,
      },
    ),
  );
  const projects = useQuery(trpc.projects.list.queryOptions({ limit: 200 }));
  const kube = useKubeconfig(id);
  const deleteDialog = useRef<HTMLDialogElement>(null);

  const c = cluster.data;
  const runId = deleteRunId ?? c?.latest_run_id ?? null;
  const onRunFinished = useCallback(() => {
    void qc.invalidateQueries(trpc.compute.clusters.get.queryFilter({ id }));
    void qc.invalidateQueries(trpc.compute.clusters.list.pathFilter());
    void qc.invalidateQueries(trpc.notifications.pathFilter());
  }, [qc, trpc, id]);
  const onDeleted = (runId: string) => {
    setDeleteRunId(runId);
    kube.hide();
  };

  if (cluster.isPending) return <ClusterDetailSkeleton />;

  // A cluster deleted while the page was open answers not_found: its last data is stale.
  const error = trpcErrorBody(cluster.error);
  const gone = error.code === 'not_found';
  if (!c || gone) {
    return (
      <div className="space-y-6">
        <ClusterUnavailable id={id} gone={gone} deleted={deleteRunId !== null} error={error} />
        {deleteRunId && <RunProgress runId={deleteRunId} />}
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <ClusterHeader
        cluster={c}
        fetchingKubeconfig={kube.fetching}
        onDownloadKubeconfig={() => void kube.download(c.name)}
        onDelete={() => deleteDialog.current?.showModal()}
      />
      <ClusterFacts cluster={c} projectName={projects.data?.data.find((p) => p.id === c.project_id)?.name} />
      {kube.kubeconfig && c.status === 'ready' && (
        <KubeconfigPanel clusterName={c.name} kubeconfig={kube.kubeconfig} onHide={kube.hide} />
      )}
      {runId ? (
        <RunProgress key={runId} runId={runId} onFinished={onRunFinished} />
      ) : (
        <div className={`${card} p-5 text-sm text-slate-500 dark:text-slate-400`}>
          This cluster has no workflow runs.
        </div>
      )}
      <DeleteClusterDialog ref={deleteDialog} cluster={c} onDeleted={onDeleted} />
    </div>
  );
}
