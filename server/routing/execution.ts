// The policy's two execution points (hints before authentication, the policy after), as pure
// functions the request middleware calls. docs/flows/routing-policy.md#where-it-is-enforced
import { parseApiKey, GLOBAL_KEY_REGION } from '../api-keys/format';
import { DEFAULT_READ_RULES, type ReadRules } from '../db/read-gate';
import { isRegionCode } from '../region/code';
import type { PolicyContent, RouteClass } from './policy-content';

export interface Hints {
  subdomain?: string;
  header?: string | null;
  query?: string | null;
  /** The Authorization header (only its key's region is read: `mk_{region}_…`). */
  authorization?: string | null;
}

export interface HintOutcome {
  /** The regions the hints leave, sorted; every known region when no hint names one. */
  regions: string[];
  /** Whether any hint named a region (else `regions` is everything known). */
  narrowed: boolean;
}

/** The registry's codes sorted, once per registry (this runs for every request). */
const sorted = new WeakMap<ReadonlySet<string>, string[]>();
function sortedCodes(known: ReadonlySet<string>): string[] {
  let codes = sorted.get(known);
  if (!codes) sorted.set(known, (codes = [...known].sort()));
  return codes;
}

/**
 * Execution point 1. The first of subdomain → header → query that names a known region (the
 * cascade's order: a later one never overrides it), intersected with a region key's region.
 * Malformed or unknown values narrow nothing here: point 2's cascade refuses them with
 * `invalid_region` once the caller is known (a stranger learns nothing before authenticating).
 */
export function hintRegions(hints: Hints, known: ReadonlySet<string>): HintOutcome {
  let regions = sortedCodes(known);
  let narrowed = false;
  const named = [hints.subdomain, hints.header, hints.query].find(
    (v): v is string => typeof v === 'string' && isRegionCode(v) && known.has(v),
  );
  if (named) {
    regions = regions.filter((r) => r === named);
    narrowed = true;
  }
  const bearer = hints.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const keyRegion = bearer ? parseApiKey(bearer)?.region : undefined;
  if (keyRegion && keyRegion !== GLOBAL_KEY_REGION) {
    regions = regions.filter((r) => r === keyRegion);
    narrowed = true;
  }
  return { regions, narrowed };
}

/**
 * Execution point 2's recheck of the hint: the region the cascade chose (with the verified
 * identity) must be one the hints left. Returns false when it is not (the caller refuses).
 */
export function withinHints(hints: HintOutcome, region: string, fanOut: boolean): boolean {
  if (fanOut || !hints.narrowed) return true;
  return hints.regions.includes(region);
}

/** The route class of a procedure: writes are mutations; reads of one resource vs lists. */
export function routeClassOf(
  type: 'query' | 'mutation' | 'subscription',
  path: string,
  openapiPath?: string,
): RouteClass {
  if (type === 'mutation') return 'write';
  if (openapiPath) return openapiPath.includes('{') ? 'read' : 'list';
  return /(^|\.)(list|search|all)[A-Za-z]*$/.test(path) ? 'list' : 'read';
}

/** The data layer's rules for one route class under a policy (the platform default without one). */
export function readRulesFor(content: PolicyContent | undefined, routeClass: RouteClass): ReadRules {
  if (!content) return DEFAULT_READ_RULES;
  const limits = content.routes[routeClass];
  return {
    mode: content.failover_mode,
    standbyRegion: content.standby_region,
    weights: content.read_weights,
    allowed: content.allowed_regions,
    maxLagMs: limits.max_lag_ms,
    maxSignalAgeMs: limits.max_signal_age_ms,
  };
}

/** Whether this write must carry an Idempotency-Key under the policy (API callers only). */
export function idempotencyRequired(
  content: PolicyContent | undefined,
  routeClass: RouteClass,
  apiCaller: boolean,
): boolean {
  return apiCaller && routeClass === 'write' && content?.routes.write.idempotency === 'required';
}
