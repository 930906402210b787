// The routing policy: published versions (epoch.sequence), the static rules a content must pass,
// and the platform default's built-in content. Pure: no database, no I/O. docs/flows/routing-policy.md
import { z } from 'zod';
import { DEFAULT_ROUTES, LIMIT_BOUNDS, ROUTE_CLASSES, type PolicyContent } from './policy-content';

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

export interface RegionFacts {
  /** The region registry's status of each known region (`active`, `draining`, `down`, …). */
  status: ReadonlyMap<string, string>;
}

/** One rule a content breaks: the field it is about and why. */
export const policyIssueView = z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() });
export type PolicyIssue = z.infer<typeof policyIssueView>;

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
