// Stage `resolve`: the resolution cascade for one request, from gathering its inputs to a
// RegionContext or an AppError (docs/flows/region-resolution.md).
import { isOperator, type Identity } from '../../../auth/identity';
import { AppError } from '../../../errors';
import { isId, type IdPrefix } from '../../../ids';
import type { RegionRegistry } from '../../../region/registry';
import { resolveRegion, traceCascade, type CascadeTraceStep, type ResolveInput } from '../../../region/cascade';
import { storedRegion } from '../../../region/resource-region';
import type { RegionContext, RequestMeta } from '../../context';
import { subdomainLabel } from '../gateway-region';
import type { Stage } from '../stage';

export interface ResourceParam {
  /** The input member that holds the resource ID (from the path for REST). */
  param: string;
  prefix: IdPrefix;
}

export interface ResolveRequestArgs {
  req: RequestMeta;
  identity: Identity;
  registry: RegionRegistry;
  gatewayRegion: string;
  /** What the client sent as input: the JSON body for REST/tRPC mutations, a form for actions. */
  rawInput: unknown;
  /** tRPC query vs mutation (an action is a mutation). */
  mutation: boolean;
  resource?: ResourceParam;
  /**
   * The organization's allowed regions under its routing policy (execution point 2): what the
   * cascade's region must be one of. Defaults to the identity's organization's.
   */
  allowedRegions?: readonly string[];
  /** Filled with the cascade's steps as they went (for the request's decision record). */
  trace?: CascadeTraceStep[];
}

function sessionOf(identity: Identity): ResolveInput['session'] {
  switch (identity.kind) {
    case 'api_key':
      // A region key carries its region: the caller's default, and the only region it may use.
      if (identity.region) return { keyRegion: identity.region, allowedRegions: identity.org.allowedRegions };
      // An organization-wide key: mutations use the organization's default (or its only region);
      // reads that name no region fan out over every allowed region.
      return {
        readsFanOut: true,
        orgRegion:
          identity.org.defaultRegion ??
          (identity.org.allowedRegions.length === 1 ? identity.org.allowedRegions[0] : null),
        allowedRegions: identity.org.allowedRegions,
      };
    case 'session':
      return identity.org
        ? {
            projectRegion: identity.projectRegion,
            // The user's own default (settings) comes before the organization's.
            orgRegion: identity.userRegion ?? identity.org.defaultRegion,
            allowedRegions: identity.org.allowedRegions,
          }
        : undefined;
    default:
      return undefined;
  }
}

function withAllowed(
  session: ResolveInput['session'],
  allowed: readonly string[] | undefined,
): ResolveInput['session'] {
  return session && allowed ? { ...session, allowedRegions: allowed } : session;
}

export async function resolveRequestRegion(args: ResolveRequestArgs): Promise<RegionContext> {
  const { req, identity, registry } = args;
  const raw =
    args.rawInput && typeof args.rawInput === 'object' ? (args.rawInput as Record<string, unknown>) : undefined;
  let resourceId: string | undefined;
  if (args.resource) {
    const value = raw?.[args.resource.param];
    if (!isId(value, args.resource.prefix)) {
      throw new AppError(
        'invalid_request',
        `${args.resource.param} must be an ID of the form ${args.resource.prefix}_…`,
        {
          extra: { details: [{ path: [args.resource.param], message: 'malformed ID' }] },
        },
      );
    }
    resourceId = value;
  }
  // tRPC queries carry no body; REST GETs merge the query string into the input, so the body
  // counts only for mutations (resolveRegion ignores it for reads as well).
  const input: ResolveInput = {
    method: args.mutation ? (req.method === 'GET' ? 'POST' : req.method) : 'GET',
    subdomain: subdomainLabel(req),
    header: req.headers.get('x-region'),
    query: req.url.searchParams.has('region') ? req.url.searchParams.get('region') : undefined,
    body: args.mutation ? raw : undefined,
    session: withAllowed(sessionOf(identity), args.allowedRegions),
    resourceId,
    known: registry.known,
  };
  let result = resolveRegion(input);
  if (result.kind === 'lookup') {
    const region = await storedRegion(result.resourceId, {
      org: identity.kind === 'anonymous' ? null : identity.org,
      operator: isOperator(identity),
    });
    result = resolveRegion({ ...input, resourceRegion: region });
    args.trace?.push(...traceCascade({ ...input, resourceRegion: region }, result));
  } else {
    args.trace?.push(...traceCascade(input, result));
  }
  switch (result.kind) {
    case 'error':
      throw new AppError(result.code, result.message, { extra: result.region ? { region: result.region } : {} });
    case 'lookup':
      throw new Error('resolution asked for a second lookup'); // unreachable: resourceRegion is set
    case 'fan-out':
      return { region: args.gatewayRegion, source: 'fan-out', fanOut: result.regions };
    case 'region':
      if (identity.kind === 'api_key' && identity.region !== null && result.region !== identity.region) {
        throw new AppError('wrong_region', `this API key belongs to region ${identity.region}`, {
          extra: {
            region: identity.region,
            ...(registry.get(identity.region) ? { base_url: registry.get(identity.region)!.baseUrl } : {}),
          },
          headers: { 'Cache-Control': 'no-store' },
        });
      }
      return { region: result.region, source: result.source };
  }
}

export const resolve: Stage = {
  name: 'resolve',
  async run(s) {
    const { ctx, meta } = s;
    s.resolveStartedAt = performance.now();
    s.resolved =
      meta?.region === 'gateway'
        ? { region: ctx.gatewayRegion, source: 'gateway' }
        : await resolveRequestRegion({
            req: ctx.req,
            identity: ctx.identity,
            registry: s.registry,
            gatewayRegion: ctx.gatewayRegion,
            rawInput: s.rawInput,
            mutation: s.type === 'mutation',
            resource: meta?.resource,
            allowedRegions: s.policyContent?.allowed_regions,
            trace: s.cascade,
          });
  },
};
