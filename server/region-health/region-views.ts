// The regions as Atlas shows them: the live overview (health, traffic, limits) and one in detail.
import { z } from 'zod';
import { clusterCountsView } from '../clusters/counts';

const trafficView = z.object({
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

const regionHealthView = z.object({
  /** Debounced: `lagging` only after ATLAS_LAG_SAMPLES probes in a row over a limit. */
  replica_state: z.enum(['healthy', 'lagging', 'down', 'unknown']),
  serving_reads: z.boolean().nullable(),
  lag_bytes: z.number().nullable(),
  lag_seconds: z.number().nullable(),
  lagging_since: z.string().nullable(),
  over_limit_samples: z.number(),
  checked_at: z.string().nullable(),
  primary_reachable: z.boolean().nullable(),
  error: z.string().nullable(),
});
export type RegionHealthView = z.infer<typeof regionHealthView>;

const linkView = z.object({
  rtt_ms: z
    .number()
    .nullable()
    .describe(
      "The region's round trip to the primary (ms): the lowest of its gateway processes' recent readings (each the median of its health probes); null when none is fresh",
    ),
  gateways: z.number().describe('Gateway processes of the region with a fresh reading'),
  measured_at: z.string().nullable(),
});
export type ReplicaState = RegionHealthView['replica_state'];

export const regionOverviewView = z.object({
  code: z.string(),
  label: z.string(),
  country: z.string(),
  timezone: z.string(),
  provider: z.string(),
  status: z.enum(['active', 'draining', 'down']),
  baseUrl: z.string(),
  isPrimary: z.boolean(),
  health: regionHealthView,
  /** The region's link to the primary (docs/atlas.md#the-link-to-the-primary). */
  link: linkView,
  degraded: z.boolean(),
  /** Why the card is degraded, one sentence each; empty when all is well. */
  reasons: z.array(z.string()),
  traffic: z.object({ window_seconds: z.number(), reads: trafficView, writes: trafficView }),
  limits: z.object({ lag_bytes: z.number(), lag_seconds: z.number(), lag_samples: z.number() }),
});
export type RegionOverview = z.infer<typeof regionOverviewView>;

const nodeCapacityView = z.object({
  total: z.number(),
  available: z.number(),
  promised: z.number().describe('nodes of pending/provisioning clusters not yet allocated'),
  free: z.number().describe('available − promised: what a new cluster may take'),
});

export const regionDetailView = regionOverviewView.extend({
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
      cpu: nodeCapacityView,
      gpu: nodeCapacityView,
    })
    .nullable(),
  clusters: clusterCountsView.nullable(),
  /** Why capacity and clusters are null (no database answered), else null. */
  counts_error: z.string().nullable(),
});
export type RegionDetail = z.infer<typeof regionDetailView>;
export type RegionCapacity = NonNullable<RegionDetail['capacity']>;
