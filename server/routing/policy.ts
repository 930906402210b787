// The routing policy: per organization (and one platform default), published as immutable
// versions. It says where the organization's traffic may enter (`allowed_regions`), which region
// serves it when a request names none (`primary_region`), how reads may move when a replica is
// unfit (`failover_mode`), and per route class how stale a replica (`max_lag_ms`) and how old
// the health signal about it (`max_signal_age_ms`) may be. Pure: no database, no I/O.
//
// Versions are `(epoch, sequence)`, compared lexicographically. A publish bumps the sequence; a
// takeover of the policy store bumps the epoch (and the sequence starts over). Gateways refuse
// any policy or change event from an epoch older than the newest they have seen (fencing: a
// stale store that comes back can't roll the fleet back).
import { z } from 'zod';
import { isRegionCode } from '../region/code';

export const FAILOVER_MODES = ['fixed', 'active_standby', 'weighted_reads'] as const;

export const ROUTE_CLASSES = ['read', 'list', 'write'] as const;
export type RouteClass = (typeof ROUTE_CLASSES)[number];

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
          idempotency: z.enum(['required', 'optional']),
        }),
      })
      .strict(),
  })
  .strict();

export type PolicyContent = z.infer<typeof policyContentSchema>;

export interface PolicyVersion {
  epoch: number;
  sequence: number;
}

export interface PublishedPolicy {
  /** null: the platform default (its region fields are placeholders each organization overrides). */
  orgId: string | null;
  version: PolicyVersion;
  content: PolicyContent;
  publishedAt: Date;
  publishedBy: string | null;
  /** The version this one restored (a rollback), if it is one. */
  rollbackOf: PolicyVersion | null;
}

export function compareVersions(a: PolicyVersion, b: PolicyVersion): number {
  return a.epoch !== b.epoch ? a.epoch - b.epoch : a.sequence - b.sequence;
}

export function formatVersion(v: PolicyVersion): string {
  return `${v.epoch}.${v.sequence}`;
}

/** `3.17` → {epoch: 3, sequence: 17}; undefined when malformed. */
export function parseVersion(s: string): PolicyVersion | undefined {
  const m = /^(\d{1,9})\.(\d{1,12})$/.exec(s);
  if (!m) return undefined;
  return { epoch: Number(m[1]), sequence: Number(m[2]) };
}

/** The platform default's routes and mode (the `fixed` behaviour every gateway had before policies). */
export const DEFAULT_ROUTES: PolicyContent['routes'] = {
  read: { max_lag_ms: 1_000, max_signal_age_ms: 5_000 },
  list: { max_lag_ms: 1_000, max_signal_age_ms: 5_000 },
  write: { max_lag_ms: 0, max_signal_age_ms: 5_000, idempotency: 'optional' },
};

export interface RegionFacts {
  /** The region registry's status of each known region (`active`, `draining`, `down`, …). */
  status: ReadonlyMap<string, string>;
}

export interface PolicyIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Static validation before a publish (and by each gateway before it applies a version): the
 * regions exist and are active or draining, the primary region is allowed, the standby and the
 * weighted regions are allowed, limits are within bounds, the write route has an idempotency
 * policy. An empty list means valid.
 */
export function validatePolicy(content: PolicyContent, regions: RegionFacts): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  const usable = (r: string) => ['active', 'draining'].includes(regions.status.get(r) ?? '');
  const allowed = new Set(content.allowed_regions);
  if (allowed.size !== content.allowed_regions.length) {
    issues.push({ path: ['allowed_regions'], message: 'a region is listed twice' });
  }
  content.allowed_regions.forEach((r, i) => {
    if (!regions.status.has(r)) issues.push({ path: ['allowed_regions', i], message: `no region ${r}` });
    else if (!usable(r))
      issues.push({
        path: ['allowed_regions', i],
        message: `${r} is ${regions.status.get(r)}: only active or draining regions`,
      });
  });
  if (!allowed.has(content.primary_region)) {
    issues.push({
      path: ['primary_region'],
      message: `the primary region ${content.primary_region} must be one of the allowed regions`,
    });
  }
  if (content.failover_mode === 'active_standby') {
    if (!content.standby_region) {
      issues.push({ path: ['standby_region'], message: 'active_standby needs a standby region' });
    } else if (!allowed.has(content.standby_region)) {
      issues.push({
        path: ['standby_region'],
        message: `the standby region ${content.standby_region} must be allowed`,
      });
    } else if (content.standby_region === content.primary_region) {
      issues.push({ path: ['standby_region'], message: 'the standby region must differ from the primary region' });
    }
  }
  if (content.failover_mode === 'weighted_reads') {
    const weighted = Object.entries(content.read_weights).filter(([, w]) => w > 0);
    if (weighted.length === 0) {
      issues.push({
        path: ['read_weights'],
        message: 'weighted_reads needs at least one region with a weight above 0',
      });
    }
    for (const [r] of weighted) {
      if (!allowed.has(r)) issues.push({ path: ['read_weights', r], message: `${r} is not an allowed region` });
    }
  }
  for (const route of ROUTE_CLASSES) {
    const limits = content.routes[route];
    for (const field of ['max_lag_ms', 'max_signal_age_ms'] as const) {
      const { min, max } = LIMIT_BOUNDS[field];
      if (limits[field] < min || limits[field] > max) {
        issues.push({ path: ['routes', route, field], message: `must be between ${min} and ${max}` });
      }
    }
  }
  return issues;
}

/** The platform default's content before any store answers (the migration seeds the same, 1.1). */
export function builtInDefault(primaryRegion = 'sfo1'): PolicyContent {
  return {
    primary_region: primaryRegion,
    allowed_regions: [primaryRegion],
    failover_mode: 'fixed',
    standby_region: null,
    read_weights: {},
    routes: structuredClone(DEFAULT_ROUTES),
  };
}
