// The region resolution cascade as a pure function over plain inputs (first match wins):
// docs/flows/region-resolution.md.
import { isRegionCode } from './code';

export type RegionSource =
  | 'subdomain'
  | 'header'
  | 'query'
  | 'body'
  | 'key'
  | 'project-session'
  | 'session'
  | 'resource'
  | 'fan-out'
  | 'gateway';

export interface ResolveInput {
  /** GET/HEAD are reads (fan-out allowed); anything else is a mutation. */
  method: string;
  /** The region label of the host (`sfo1` of `sfo1.localhost`), if the host has one. */
  subdomain?: string;
  header?: string | null;
  query?: string | null;
  /** The parsed JSON body: only its `region` member counts, and only for mutations. */
  body?: unknown;
  session?: {
    /** The region written in a region API key (`mk_sfo1_…`): the only region it may use. */
    keyRegion?: string | null;
    /**
     * Reads skip the project and org defaults and fan out when nothing explicit names a region
     * (an organization-wide API key: a script that lists "everything" gets every region).
     */
    readsFanOut?: boolean;
    projectRegion?: string | null;
    orgRegion?: string | null;
    /** The organization's allowed regions; undefined for callers without an organization. */
    allowedRegions?: readonly string[];
  };
  /** The resource ID named in the path, if the route names one. */
  resourceId?: string;
  /**
   * The stored region of that resource: undefined = not looked up yet, null = no such resource
   * (or not visible to the caller).
   */
  resourceRegion?: string | null;
  /** Regions known to this gateway's registry (for unknown-region errors and fan-out). */
  known: ReadonlySet<string>;
}

export type RegionResolution =
  | { kind: 'region'; region: string; source: Exclude<RegionSource, 'fan-out'> }
  | { kind: 'fan-out'; regions: string[]; source: 'fan-out' }
  /** The cascade reached the resource step: look up `resourceId` and resolve again. */
  | { kind: 'lookup'; resourceId: string };

export type ResolveErrorCode = 'invalid_region' | 'region_required' | 'region_not_allowed' | 'not_found';

export interface ResolveError {
  kind: 'error';
  code: ResolveErrorCode;
  message: string;
  source?: RegionSource;
  region?: string;
}

export type ResolveResult = RegionResolution | ResolveError;

const READS = new Set(['GET', 'HEAD']);

export function isReadMethod(method: string): boolean {
  return READS.has(method.toUpperCase());
}

function explicitValue(value: unknown): { present: boolean; value: unknown } {
  return { present: value !== undefined && value !== null, value };
}

export function resolveRegion(input: ResolveInput): ResolveResult {
  const read = isReadMethod(input.method);
  const bodyRegion =
    !read && input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body)
      ? (input.body as Record<string, unknown>).region
      : undefined;

  const explicit: [Exclude<RegionSource, 'fan-out'>, { present: boolean; value: unknown }][] = [
    ['subdomain', explicitValue(input.subdomain)],
    ['header', explicitValue(input.header)],
    ['query', explicitValue(input.query)],
    ['body', explicitValue(bodyRegion)],
  ];

  // Validate every explicit value first: malformed or unknown is an error wherever it appears.
  for (const [source, { present, value }] of explicit) {
    if (!present) continue;
    if (typeof value !== 'string' || !isRegionCode(value)) {
      return invalid(source, `${describe(source)} ${show(value)} is not a region code (e.g. sfo1)`);
    }
    if (!input.known.has(value)) {
      return invalid(source, `${describe(source)} names the unknown region "${value}"`, value);
    }
  }

  const allowed = input.session?.allowedRegions;
  const check = (region: string, source: Exclude<RegionSource, 'fan-out'>): ResolveResult => {
    if (allowed && !allowed.includes(region)) {
      return {
        kind: 'error',
        code: 'region_not_allowed',
        message: `region ${region} is not one of your organization's regions (${allowed.join(', ') || 'none'})`,
        source,
        region,
      };
    }
    return { kind: 'region', region, source };
  };

  for (const [source, { present, value }] of explicit) {
    if (present) return check(value as string, source);
  }

  const key = input.session?.keyRegion;
  if (key && input.known.has(key)) return check(key, 'key');
  if (!(read && input.session?.readsFanOut)) {
    const project = input.session?.projectRegion;
    if (project && input.known.has(project)) return check(project, 'project-session');
    const org = input.session?.orgRegion;
    if (org && input.known.has(org)) return check(org, 'session');
  }

  if (input.resourceId !== undefined) {
    if (input.resourceRegion === undefined) return { kind: 'lookup', resourceId: input.resourceId };
    if (input.resourceRegion !== null && input.known.has(input.resourceRegion)) {
      return check(input.resourceRegion, 'resource');
    }
    // A change to a resource the caller can't see: there is nothing to route to.
    if (!read && input.resourceRegion === null) {
      return {
        kind: 'error',
        code: 'not_found',
        message: `no such resource: ${input.resourceId}`,
      };
    }
  }

  if (read) {
    const regions = (allowed ?? [...input.known]).filter((r) => input.known.has(r)).sort();
    return { kind: 'fan-out', regions, source: 'fan-out' };
  }
  return {
    kind: 'error',
    code: 'region_required',
    message: 'this request changes data and names no region: send X-Region, ?region= or a body "region"',
  };
}

function invalid(source: RegionSource, message: string, region?: string): ResolveError {
  return { kind: 'error', code: 'invalid_region', message, source, region };
}

function describe(source: RegionSource): string {
  switch (source) {
    case 'subdomain':
      return 'the host’s subdomain';
    case 'header':
      return 'the X-Region header';
    case 'query':
      return 'the region query parameter';
    case 'body':
      return 'the body’s "region"';
    default:
      return source;
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return `(${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`;
}

/** One step of the cascade as it went for a request (the decision record's `cascade`). */
export interface CascadeTraceStep {
  step: RegionSource;
  value?: string;
  outcome: 'matched' | 'absent' | 'invalid' | 'skipped';
}

/**
 * The cascade's steps in order, as `resolveRegion` took them for `input` with `result`: which
 * step matched, which were absent, which held a value a step before them made moot (`skipped`,
 * still validated), which were invalid. Steps after the match are left out.
 */
export function traceCascade(input: ResolveInput, result: ResolveResult): CascadeTraceStep[] {
  const read = isReadMethod(input.method);
  const bodyRegion =
    !read && input.body !== null && typeof input.body === 'object' && !Array.isArray(input.body)
      ? (input.body as Record<string, unknown>).region
      : undefined;
  const matched = result.kind === 'region' || result.kind === 'fan-out' ? result.source : undefined;
  const failedAt = result.kind === 'error' ? result.source : undefined;
  const steps: CascadeTraceStep[] = [];
  let done = false;
  const push = (step: RegionSource, raw: unknown) => {
    const present = raw !== undefined && raw !== null;
    const value = present ? (typeof raw === 'string' ? raw.slice(0, 40) : `(${typeof raw})`) : undefined;
    if (done) {
      if (present) steps.push({ step, value, outcome: 'skipped' });
      return;
    }
    if (step === failedAt && result.kind === 'error' && result.code === 'invalid_region') {
      steps.push({ step, value, outcome: 'invalid' });
      done = true;
    } else if (step === matched || (step === failedAt && present)) {
      steps.push({ step, value, outcome: 'matched' });
      done = true;
    } else {
      steps.push(present ? { step, value, outcome: 'skipped' } : { step, outcome: 'absent' });
    }
  };
  push('subdomain', input.subdomain);
  push('header', input.header);
  push('query', input.query);
  if (!read) push('body', bodyRegion);
  if (done) return steps;
  push('key', input.session?.keyRegion);
  const defaultsApply = !(read && input.session?.readsFanOut);
  push('project-session', defaultsApply ? input.session?.projectRegion : undefined);
  push('session', defaultsApply ? input.session?.orgRegion : undefined);
  if (done) return steps;
  if (input.resourceId !== undefined) push('resource', input.resourceRegion ?? undefined);
  if (done) return steps;
  if (read) steps.push({ step: 'fan-out', outcome: matched === 'fan-out' ? 'matched' : 'absent' });
  return steps;
}
