// What a new routing policy version changes against the current one, field by field: the
// preview API, the publish's audit event and the Atlas editor's diff view. Pure (lib/: shared by
// the server and the UI); the content's shape is server/routing/policy.ts's PolicyContent.

interface RouteLimits {
  max_lag_ms: number;
  max_signal_age_ms: number;
}

/** The fields of a policy content this module reads (server/routing/policy.ts PolicyContent). */
export interface PolicyContentShape {
  primary_region: string;
  allowed_regions: string[];
  failover_mode: string;
  standby_region?: string | null;
  read_weights?: Record<string, number>;
  routes: { read: RouteLimits; list: RouteLimits; write: RouteLimits & { idempotency: string } };
}

export interface PolicyChange {
  /** Dotted path of the field, e.g. `routes.read.max_lag_ms`, `allowed_regions`. */
  path: string;
  before: unknown;
  after: unknown;
}

/** Stable form of a content (fixed key order, regions and weights sorted): equal policies, equal JSON. */
export function normalizePolicy<T extends PolicyContentShape>(content: T): T {
  const out: PolicyContentShape = {
    primary_region: content.primary_region,
    allowed_regions: [...content.allowed_regions].sort(),
    failover_mode: content.failover_mode,
    standby_region: content.standby_region ?? null,
    read_weights: Object.fromEntries(Object.entries(content.read_weights ?? {}).sort(([a], [b]) => a.localeCompare(b))),
    routes: {
      read: { max_lag_ms: content.routes.read.max_lag_ms, max_signal_age_ms: content.routes.read.max_signal_age_ms },
      list: { max_lag_ms: content.routes.list.max_lag_ms, max_signal_age_ms: content.routes.list.max_signal_age_ms },
      write: {
        max_lag_ms: content.routes.write.max_lag_ms,
        max_signal_age_ms: content.routes.write.max_signal_age_ms,
        idempotency: content.routes.write.idempotency,
      },
    },
  };
  return out as T;
}

function leaves(value: unknown, prefix: string, out: Map<string, unknown>): void {
  // Lists are compared whole (a region list is one setting); objects field by field.
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, {});
    for (const [k, v] of entries) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out.set(prefix, value);
  }
}

/** The fields that differ (every field when there is no current version). */
export function diffPolicies(before: PolicyContentShape | null, after: PolicyContentShape): PolicyChange[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  if (before) leaves(normalizePolicy(before), '', a);
  leaves(normalizePolicy(after), '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  return paths
    .filter((p) => JSON.stringify(a.get(p)) !== JSON.stringify(b.get(p)))
    .map((p) => ({ path: p, before: a.has(p) ? a.get(p) : null, after: b.has(p) ? b.get(p) : null }));
}

export function samePolicy(a: PolicyContentShape, b: PolicyContentShape): boolean {
  return JSON.stringify(normalizePolicy(a)) === JSON.stringify(normalizePolicy(b));
}
