// Live clusters by status (pending … deleting), each a link to the cross-organization cluster
// list filtered to that status (and to the region or organization given in `filter`).
import Link from 'next/link';
import { LISTED_CLUSTER_STATUSES } from '~/lib/cluster-status';
import { StatusBadge } from '../ui/status-badge';
import { focusRingTight } from '../ui/styles';

export type ClusterCountsData = Record<(typeof LISTED_CLUSTER_STATUSES)[number] | 'total', number>;

export function ClusterCounts({
  counts,
  filter,
  label,
}: {
  counts: ClusterCountsData;
  /** Query string of the list these counts link to, e.g. `region=lax1` or `org=globex`. */
  filter: string;
  label: string;
}) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2" data-testid="cluster-counts">
      {LISTED_CLUSTER_STATUSES.map((s) => (
        <li key={s}>
          <Link
            href={`/atlas/clusters?${filter}&status=${s}`}
            data-testid={`clusters-${s}`}
            className={`inline-flex items-center gap-1.5 rounded-md border border-slate-200 px-2 py-1 text-sm hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800 ${focusRingTight}`}
          >
            <StatusBadge status={s} />
            <span className="font-semibold tabular-nums">{counts[s]}</span>
          </Link>
        </li>
      ))}
      <li className="self-center text-sm text-slate-600 dark:text-slate-300">
        <Link href={`/atlas/clusters?${filter}`} className={`underline-offset-2 hover:underline ${focusRingTight}`}>
          {counts.total} live in all
        </Link>
      </li>
    </ul>
  );
}
