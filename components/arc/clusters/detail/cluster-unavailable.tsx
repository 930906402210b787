// What a cluster page shows when there is no cluster to show: it was just deleted, it never was
// one of the organization's, or it could not be loaded (with the request ID).
import Link from 'next/link';
import { EmptyState } from '../../../ui/empty-state';
import { btnSecondary, card } from '../../../ui/styles';

export function ClusterUnavailable({
  id,
  gone,
  deleted,
  error,
}: {
  id: string;
  /** The server said not_found. */
  gone: boolean;
  /** This page deleted it. */
  deleted: boolean;
  error: { message?: string; request_id?: string };
}) {
  return (
    <div className={card}>
      <EmptyState
        title={gone ? (deleted ? 'This cluster was deleted' : 'No such cluster') : 'Could not load the cluster'}
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
            {error.message}
            {error.request_id && <span className="ml-1 font-mono text-xs">({error.request_id})</span>}
          </span>
        )}
      </EmptyState>
    </div>
  );
}
