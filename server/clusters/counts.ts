// Live clusters counted by listed status (and in total), as the Atlas cards and pages show them.
import { z } from 'zod';
import { LISTED_CLUSTER_STATUSES } from '~/lib/cluster-status';

/** Live (not deleted) clusters by status. */
export const clusterCountsView = z.object({
  pending: z.number(),
  provisioning: z.number(),
  ready: z.number(),
  failed: z.number(),
  deleting: z.number(),
  total: z.number(),
});
export type ClusterCounts = z.infer<typeof clusterCountsView>;

export function clusterCounts(byStatus: Record<string, number> | null | undefined): ClusterCounts {
  const out = { total: 0 } as ClusterCounts;
  for (const s of LISTED_CLUSTER_STATUSES) {
    out[s] = Number(byStatus?.[s] ?? 0);
    out.total += out[s];
  }
  return out;
}
