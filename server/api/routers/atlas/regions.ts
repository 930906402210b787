// Atlas: the regions as operators see them, live (health, debounced lag, the gateway's traffic).
import { z } from 'zod';
import { regionDetail } from '../../../region-health/detail';
import { regionsOverview, updateRegionStatus } from '../../../region-health/overview';
import { REGION_STATUS_AUDIT_ACTION } from '../../../region/status';
import { pageInput } from '../../schemas';
import { operatorProcedure, router } from '../../trpc';

const Traffic = z.object({
  window_seconds: z.number(),
  requests: z.number(),
  rate: z.number(),
  errors: z.number(),
  error_rate: z.number(),
  mean_ms: z.number().nullable(),
  p50_ms: z.number().nullable(),
  p95_ms: z.number().nullable(),
  p99_ms: z.number().nullable(),
});

export const RegionOverview = z.object({
  code: z.string(),
  label: z.string(),
  country: z.string(),
  timezone: z.string(),
  provider: z.string(),
  status: z.enum(['active', 'draining', 'down']),
  baseUrl: z.string(),
  isPrimary: z.boolean(),
  health: z.object({
    replica_state: z.enum(['healthy', 'lagging', 'down', 'unknown']),
    serving_reads: z.boolean().nullable(),
    lag_bytes: z.number().nullable(),
    lag_seconds: z.number().nullable(),
    lagging_since: z.string().nullable(),
    over_limit_samples: z.number(),
    checked_at: z.string().nullable(),
    primary_reachable: z.boolean().nullable(),
    error: z.string().nullable(),
  }),
  degraded: z.boolean(),
  reasons: z.array(z.string()),
  traffic: z.object({ window_seconds: z.number(), reads: Traffic, writes: Traffic }),
  limits: z.object({ lag_bytes: z.number(), lag_seconds: z.number(), lag_samples: z.number() }),
});

/** Live (not deleted) clusters by status. */
export const ClusterCounts = z.object({
  pending: z.number(),
  provisioning: z.number(),
  ready: z.number(),
  failed: z.number(),
  deleting: z.number(),
  total: z.number(),
});
const NodeCapacity = z.object({
  total: z.number(),
  available: z.number(),
  promised: z.number().describe('nodes of pending/provisioning clusters not yet allocated'),
  free: z.number().describe('available − promised: what a new cluster may take'),
});

export const RegionDetail = RegionOverview.extend({
  capacity: z
    .object({
      servers: z.object({
        available: z.number(),
        provisioning: z.number(),
        allocated: z.number(),
        maintenance: z.number(),
        offline: z.number(),
        total: z.number(),
      }),
      cpu: NodeCapacity,
      gpu: NodeCapacity,
    })
    .nullable(),
  clusters: ClusterCounts.nullable(),
  counts_error: z.string().nullable(),
});

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
    .output(z.object({ data: z.array(RegionOverview), next_cursor: z.string().nullable() }))
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
    .output(RegionDetail)
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
    .output(RegionOverview)
    .mutation(({ ctx, input }) => updateRegionStatus(ctx, ctx.identity.userId, input)),
});
