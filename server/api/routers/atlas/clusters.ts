// Atlas: clusters across every organization, filtered and paged. The work is in server/clusters/all-clusters.ts.
import { z } from 'zod';
import { CLUSTER_STATUSES } from '~/lib/cluster-status';
import { atlasClusterView, listAllClusters } from '../../../clusters/all-clusters';
import { TEMPLATE_IDS } from '../../../clusters/templates';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

export const atlasClustersRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/compute/clusters',
        summary: 'Clusters of every organization, newest first (deleted ones only with status=deleted)',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        org: z.string().max(64).optional().describe('Organization ID (org_…) or slug'),
        region: z.string().max(64).optional(),
        status: z.enum(CLUSTER_STATUSES).optional(),
        template: z.enum(TEMPLATE_IDS).optional(),
        q: z.string().max(100).optional().describe('Part of the name, or a cluster ID'),
        ...pageInput(200),
      }),
    )
    .output(z.object({ data: z.array(atlasClusterView), next_cursor: z.string().nullable() }))
    .query(({ ctx, input }) => listAllClusters(ctx, input)),
});
