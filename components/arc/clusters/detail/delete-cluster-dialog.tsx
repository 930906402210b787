'use client';
// The confirmation before deleting a cluster (opened by the page header's "Delete cluster"). On
// confirm the server action starts the deletion run and the page follows it (onDeleted).
import { useQueryClient } from '@tanstack/react-query';
import type { RefObject } from 'react';
import { deleteCluster } from '~/server/api/actions/clusters';
import { useToast } from '../../../toast';
import { useTRPC, type RouterOutputs } from '../../../trpc-provider';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { btnDanger } from '../../../ui/styles';
import { useDialogAction } from '../../../ui/use-dialog-action';

type Cluster = RouterOutputs['compute']['clusters']['get'];

export function DeleteClusterDialog({
  ref: dialog,
  cluster: c,
  onDeleted,
}: {
  ref: RefObject<HTMLDialogElement | null>;
  cluster: Cluster;
  onDeleted: (runId: string) => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const { toast } = useToast();
  const [deleting, confirm] = useDialogAction(dialog, () => deleteCluster({ id: c.id }), {
    failure: 'Could not delete the cluster',
    onDone: (data) => {
      onDeleted(data.run_id);
      qc.setQueryData(trpc.compute.clusters.get.queryKey({ id: c.id }), (old) =>
        old ? { ...old, ...data.cluster, latest_run_id: data.run_id } : old,
      );
      void qc.invalidateQueries(trpc.compute.clusters.list.pathFilter());
      toast({ kind: 'info', title: `Deleting ${data.cluster.name}`, message: 'Its servers are being released.' });
    },
  });

  return (
    <ConfirmDialog
      ref={dialog}
      id="delete-cluster-dialog"
      title={`Delete ${c.name}?`}
      confirmLabel="Delete"
      busy={deleting}
      busyLabel="Deleting…"
      confirmClassName={btnDanger}
      onConfirm={confirm}
    >
      <p>
        Its workloads are drained, its {c.node_count} {c.node_count === 1 ? 'server is' : 'servers are'} released in{' '}
        <span className="font-mono">{c.region}</span> and its kubeconfig stops working. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
