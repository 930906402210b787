// Live clusters counted by listed status (and in total), as the Atlas cards and pages show them.
import { LISTED_CLUSTER_STATUSES, type ListedClusterStatus } from '~/lib/cluster-status';

export type ClusterCounts = Record<ListedClusterStatus, number> & { total: number };

export function clusterCounts(byStatus: Record<string, number> | null | undefined): ClusterCounts {
  const out = { total: 0 } as ClusterCounts;
  for (const s of LISTED_CLUSTER_STATUSES) {
    out[s] = Number(byStatus?.[s] ?? 0);
    out.total += out[s];
  }
  return out;
}
