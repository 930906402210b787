'use client';
// The confirmation before deleting a cluster (opened by the page header's "Delete cluster"). On
// confirm the server action starts the deletion run and the page follows it (onDeleted).
import { useQueryClient } from '@tanstack/react-query';
import { useTransition, type RefObject } from 'react';
import { deleteCluster } from '~/app/arc/clusters/actions';
import { errorToast, useToast } from '../../../toast';
import { useTRPC, type RouterOutputs } from '../../../trpc-provider';
import { btnDanger, btnSecondary } from '../../../ui/styles';

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
  const [deleting, startDelete] = useTransition();

  const confirm = () =>
    startDelete(async () => {
      const res = await deleteCluster({ id: c.id });
      dialog.current?.close();
      if (!res.ok) {
        toast(errorToast('Could not delete the cluster', res.error));
        return;
      }
      onDeleted(res.data.run_id);
      qc.setQueryData(trpc.compute.clusters.get.queryKey({ id: c.id }), (old) =>
        old ? { ...old, ...res.data.cluster, latest_run_id: res.data.run_id } : old,
      );
      void qc.invalidateQueries(trpc.compute.clusters.list.pathFilter());
      toast({ kind: 'info', title: `Deleting ${res.data.cluster.name}`, message: 'Its servers are being released.' });
    });

  return (
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
          confirm();
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
  );
}
