// A routing policy's content (the zod shape, the view, the editor's options); browser-safe: zod
// and region codes only. docs/flows/routing-policy.md
import { z } from 'zod';
import { isRegionCode } from '../region/code';

export const FAILOVER_MODES = ['fixed', 'active_standby', 'weighted_reads', 'local_only'] as const;
export type FailoverMode = (typeof FAILOVER_MODES)[number];

export const ROUTE_CLASSES = ['read', 'list', 'write'] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

const IDEMPOTENCY = ['required', 'optional'] as const;

/** Bounds on the limits (validation): past MAX_LAG_MS a replica is too far behind to trust. */
export const LIMIT_BOUNDS = {
  max_lag_ms: { min: 0, max: 10_000 },
  max_signal_age_ms: { min: 100, max: 60_000 },
} as const;

const regionCode = z.string().refine(isRegionCode, 'not a region code (e.g. sfo1)');

const routeLimits = z
  .object({
    max_lag_ms: z.number().int(),
    max_signal_age_ms: z.number().int(),
  })
  .strict();

/** The content a publish must be (then validatePolicy's rules, policy.ts). */
export const policyContentSchema = z
  .object({
    primary_region: regionCode,
    allowed_regions: z.array(regionCode).min(1).max(64),
    failover_mode: z.enum(FAILOVER_MODES),
    /** active_standby: the region whose replica may take reads when the region's own can't. */
    standby_region: regionCode.nullable().default(null),
    /** weighted_reads: relative weights of the allowed regions' replicas for stateless reads. */
    read_weights: z.record(regionCode, z.number().int().min(0).max(1000)).default({}),
    routes: z
      .object({
        read: routeLimits,
        list: routeLimits,
        write: routeLimits.extend({
          /** `required`: a mutation without an Idempotency-Key is refused (400). */
          idempotency: z.enum(IDEMPOTENCY),
        }),
      })
      .strict(),
  })
  .strict();

export type PolicyContent = z.infer<typeof policyContentSchema>;

const limitsView = z.object({ max_lag_ms: z.number(), max_signal_age_ms: z.number() });

/** A published content as the API answers it (the same fields; policy-content.test.ts pins it). */
export const policyContentView = z.object({
  primary_region: z.string(),
  allowed_regions: z.array(z.string()),
  failover_mode: z.enum(FAILOVER_MODES),
  standby_region: z.string().nullable(),
  read_weights: z.record(z.string(), z.number()),
  routes: z.object({
    read: limitsView,
    list: limitsView,
    write: limitsView.extend({ idempotency: z.enum(IDEMPOTENCY) }),
  }),
});

/** The platform default's routes and mode (the `fixed` behaviour every gateway had before policies). */
export const DEFAULT_ROUTES: PolicyContent['routes'] = {
  read: { max_lag_ms: 1_000, max_signal_age_ms: 5_000 },
  list: { max_lag_ms: 1_000, max_signal_age_ms: 5_000 },
  write: { max_lag_ms: 0, max_signal_age_ms: 5_000, idempotency: 'optional' },
};

/** Whether a dotted path (`routes.read.max_lag_ms`, `read_weights.sfo1`) names one field of a content. */
export function isContentField(path: string): boolean {
  const keys = path.split('.');
  let schema: z.ZodType = policyContentView;
  for (const [i, key] of keys.entries()) {
    // A weight's key is a region: whatever follows names it.
    if (schema instanceof z.ZodRecord) return keys.slice(i).join('.') !== '';
    if (!(schema instanceof z.ZodObject)) return false;
    const next = (schema.shape as Record<string, z.ZodType | undefined>)[key];
    if (!next) return false;
    schema = next;
  }
  return !(schema instanceof z.ZodObject);
}
