// Atlas: the regions as operators see them, live (health, debounced lag, the gateway's traffic).
import { z } from 'zod';
import { regionDetail } from '../../../region-health/detail';
import { regionsOverview, updateRegionStatus } from '../../../region-health/overview';
import { regionDetailView, regionOverviewView } from '../../../region-health/region-views';
import { REGION_STATUS_AUDIT_ACTION } from '../../../region/status';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

export const atlasRegionsRouter = router({
  list: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/regions',
        summary: 'Every region with live health, debounced lag and the last 5 minutes of traffic',
        tags: ['atlas'],
      },
    })
    .input(z.object(pageInput()).optional())
    .output(z.object({ data: z.array(regionOverviewView), next_cursor: z.string().nullable() }))
    .query(({ input }) => regionsOverview({ limit: input?.limit ?? 50, cursor: input?.cursor })),

  get: operatorProcedure
    .meta({
      region: 'gateway',
      openapi: {
        method: 'GET',
        path: '/atlas/regions/{code}',
        summary:
          'One region, live, with its capacity (servers by status, CPU/GPU free vs promised) and clusters by status',
        tags: ['atlas'],
      },
    })
    .input(z.object({ code: z.string().max(64) }))
    .output(regionDetailView)
    .query(({ ctx, input }) => regionDetail(ctx, input.code)),

  update: operatorProcedure
    .meta({
      region: 'gateway',
      audit: REGION_STATUS_AUDIT_ACTION,
      openapi: {
        method: 'PATCH',
        path: '/atlas/regions/{code}',
        summary: 'Set a region’s status (active, draining, down), with a required reason; audited',
        tags: ['atlas'],
      },
    })
    .input(
      z.object({
        code: z.string(),
        status: z.enum(['active', 'draining', 'down']),
        reason: z.string().trim().min(1, 'say why').max(500),
      }),
    )
    .output(regionOverviewView)
    .mutation(({ ctx, input }) => updateRegionStatus(ctx, ctx.identity.userId, input)),
});
