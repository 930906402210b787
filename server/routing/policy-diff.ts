// What a new routing policy version changes against the current one, field by field: the
// preview API, the publish's audit event and the Atlas editor's diff view (shared with the browser).
import { z } from 'zod';
import type { PolicyContent } from './policy-content';

/** One field a version changes: its dotted path (`routes.read.max_lag_ms`), before and after. */
export const policyChangeView = z.object({ path: z.string(), before: z.unknown(), after: z.unknown() });
export type PolicyChange = z.infer<typeof policyChangeView>;

/** Stable form of a content (fixed key order, regions and weights sorted): equal policies, equal JSON. */
export function normalizePolicy(content: PolicyContent): PolicyContent {
  return {
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
export function diffPolicies(before: PolicyContent | null, after: PolicyContent): PolicyChange[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  if (before) leaves(normalizePolicy(before), '', a);
  leaves(normalizePolicy(after), '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])];
  return paths
    .filter((p) => JSON.stringify(a.get(p)) !== JSON.stringify(b.get(p)))
    .map((p) => ({ path: p, before: a.has(p) ? a.get(p) : null, after: b.has(p) ? b.get(p) : null }));
}

export function samePolicy(a: PolicyContent, b: PolicyContent): boolean {
  return JSON.stringify(normalizePolicy(a)) === JSON.stringify(normalizePolicy(b));
}
