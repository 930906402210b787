// One stage of the request middleware and the state its stages share; a stage that refuses throws
// an AppError, and no later stage runs (pipeline.ts holds their order).
import { newRequestId } from '../../ids';
import type { CascadeTraceStep } from '../../region/cascade';
import { regionRegistry, type RegionRegistry } from '../../region/registry';
import { hintRegions, routeClassOf, type HintOutcome } from '../../routing/execution';
import type { PublishedPolicy } from '../../routing/policy';
import type { PolicyContent, RouteClass } from '../../routing/policy-content';
import type { Context, RegionContext } from '../context';
import { gatewayRegion, subdomainLabel } from './gateway-region';
import type { ProcedureType, RouteMeta } from './route-meta';

export interface RequestState {
  readonly ctx: Context;
  readonly meta: RouteMeta | undefined;
  readonly path: string;
  readonly type: ProcedureType;
  readonly getRawInput: () => Promise<unknown>;
  readonly registry: RegionRegistry;
  /** `performance.now()` and `Date.now()` on arrival. */
  readonly started: number;
  readonly at: number;
  /** `METHOD /path` for REST routes, else the procedure's path. */
  readonly route: string;
  readonly routeClass: RouteClass;
  /** Execution point 1: the regions the unauthenticated hints leave. */
  readonly hints: HintOutcome;
  /** The cascade's steps as they went, for the decision record. */
  readonly cascade: CascadeTraceStep[];
  /** The policy applied (the organization's, else the platform default). */
  policy?: PublishedPolicy;
  /** The organization's own policy content; undefined when it has no version of its own. */
  policyContent?: PolicyContent;
  rawInput?: unknown;
  /** `performance.now()` when region resolution began. */
  resolveStartedAt?: number;
  /** The region resolved, before the hints' recheck lets the request into it. */
  resolved?: RegionContext;
  /** The refusal came from the hints' recheck (the decision record says so). */
  hintRefused: boolean;
  /** How many gate decisions were routing's own lookups (the record leaves them out). */
  routedAt: number;
  resolutionSeconds?: number;
}

export interface Stage {
  readonly name: string;
  /** Continues by returning, enriches `s` (or its context), or refuses by throwing an AppError. */
  run(s: RequestState): void | Promise<void>;
}

export interface Arrival {
  ctx: Context;
  meta: RouteMeta | undefined;
  path: string;
  type: ProcedureType;
  getRawInput: () => Promise<unknown>;
}

/**
 * What is known the moment a request arrives, before any check: the gateway it reached, its
 * request ID (stamped with that gateway's region) and its route. Never refuses.
 */
export async function arrive(a: Arrival): Promise<RequestState> {
  const started = performance.now();
  const at = Date.now();
  const registry = await regionRegistry();
  const { ctx, meta } = a;
  ctx.gatewayRegion = gatewayRegion(ctx.req, registry);
  ctx.requestId = newRequestId(ctx.gatewayRegion);
  return {
    ...a,
    registry,
    started,
    at,
    route: meta?.openapi ? `${meta.openapi.method} ${meta.openapi.path}` : a.path,
    routeClass: routeClassOf(a.type, a.path, meta?.openapi?.path),
    // Execution point 1 (server/routing/execution.ts): the unauthenticated hints narrow, grant nothing.
    hints: hintRegions(
      {
        subdomain: subdomainLabel(ctx.req),
        header: ctx.req.headers.get('x-region'),
        query: ctx.req.url.searchParams.get('region'),
        authorization: ctx.req.headers.get('authorization'),
      },
      registry.known,
    ),
    cascade: [],
    hintRefused: false,
    routedAt: 0,
  };
}

/** The region the `resolve` stage found, for the stages after it. */
export function resolvedRegion(s: RequestState): { region: RegionContext; startedAt: number } {
  if (!s.resolved || s.resolveStartedAt === undefined) throw new Error('the resolve stage has not run yet');
  return { region: s.resolved, startedAt: s.resolveStartedAt };
}
