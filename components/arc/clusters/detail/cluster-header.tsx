'use client';
// The top of a cluster's page: its name and status, its ID (copyable), the kubeconfig download
// once it is ready, deletion, and why it failed when it did.
import { DELETABLE_CLUSTER_STATUSES } from '~/lib/cluster-status';
import type { RouterOutputs } from '../../../trpc-provider';
import { CopyableId } from '../../../ui/copy-button';
import { NameAndStatus, PageHeader } from '../../../ui/page-header';
import { StatusBadge } from '../../../ui/status-badge';
import { btnDangerOutline, btnPrimary, noticeDanger } from '../../../ui/styles';

type Cluster = RouterOutputs['compute']['clusters']['get'];

export function ClusterHeader({
  cluster: c,
  fetchingKubeconfig,
  onDownloadKubeconfig,
  onDelete,
}: {
  cluster: Cluster;
  fetchingKubeconfig: boolean;
  onDownloadKubeconfig: () => void;
  /** Asks for confirmation (the page's delete dialog). */
  onDelete: () => void;
}) {
  const deletable = (DELETABLE_CLUSTER_STATUSES as readonly string[]).includes(c.status);
  return (
    <PageHeader
      breadcrumb={{ up: { href: '/arc/clusters', label: 'Clusters' }, current: c.name }}
      title={
        <NameAndStatus
          name={c.name}
          testId="cluster-status"
          status={<StatusBadge status={c.status} className="text-sm" />}
        />
      }
      description={
        <CopyableId
          id={c.id}
          label="Copy cluster ID"
          className="text-slate-500 dark:text-slate-400"
          codeClassName="truncate"
        />
      }
      actions={
        <div className="flex flex-wrap gap-2">
          {c.status === 'ready' && (
            <button type="button" className={btnPrimary} onClick={onDownloadKubeconfig} disabled={fetchingKubeconfig}>
              <svg aria-hidden viewBox="0 0 16 16" className="h-4 w-4 fill-none stroke-current stroke-[1.5]">
                <path d="M8 2v8m0 0L5 7m3 3l3-3M3 12.5h10" />
              </svg>
              {fetchingKubeconfig ? 'Fetching…' : 'Download kubeconfig'}
            </button>
          )}
          <button
            type="button"
            className={btnDangerOutline}
            disabled={!deletable}
            title={deletable ? undefined : `A ${c.status} cluster cannot be deleted yet`}
            onClick={onDelete}
          >
            Delete cluster
          </button>
        </div>
      }
    >
      {c.status_reason && <p className={noticeDanger}>{c.status_reason}</p>}
    </PageHeader>
  );
}
