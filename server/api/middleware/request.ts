// THE request middleware. Every procedure runs behind it, whichever door the request came in
// by (REST, tRPC, server action), so region resolution, request IDs, authentication, access
// checks, tracing, metrics, the per-request log line and error mapping exist exactly once.
// Its two helpers: error-mapping.ts (thrown values → contract errors) and request-telemetry.ts
// (span, metrics, log line).
import type { OpenApiMeta } from 'trpc-to-openapi';
import { orgOf, type Identity, type OrgContext } from '../../auth/identity';
import { newRequestId, withRegion } from '../../ids';
import { regionRegistry } from '../../region/registry';
import { withRequestSpan, type Span } from '../../telemetry/tracing';
import type { DecisionRecord } from '../../routing/decision';
import { gatewayId, principalOf } from '../../db/write-positions';
import { appliedPolicy, ensurePolicies } from '../../routing/applied';
import { recordDecision } from '../../routing/decision-log';
import { formatVersion, type PublishedPolicy, type RouteClass } from '../../routing/policy';
import { buildDecisionRecord, traceIdOf } from '../../routing/record';
import {
  hintRegions,
  idempotencyRequired,
  readRulesFor,
  routeClassOf,
  withinHints,
  type HintOutcome,
} from '../../routing/execution';
import type { CascadeTraceStep } from '../../region/resolve';
import { AppError } from '../../errors';
import type { Context, RegionContext } from '../context';
import type { ApiKeyScope } from '../../api-keys/format';
import type { AuditAction } from '../../audit/audit';
import { authenticate, requireAccess, requireScope, type Access } from './authenticate';
import { readConsistencyHeaders, stampConsistencyHeaders } from './consistency-headers';
import { toAppError, trpcErrorFor } from './error-mapping';
import { gatewayRegion, subdomainLabel } from './gateway';
import { assertNoNul } from './nul-input';
import { recordRequest } from './request-telemetry';
import { resolveRequestRegion, type ResourceParam } from './resolve-region';
import { assertSameOrigin } from './same-origin';
import { assertSessionAtHome, assertWorkspaceWritable } from './workspace-moving';

export { toAppError } from './error-mapping';

export type RouteMeta = OpenApiMeta & {
  access?: Access;
  /** `gateway`: a service route that answers for the gateway itself (no cascade). */
  region?: 'scoped' | 'gateway';
  /** The path parameter naming the resource, for the cascade's resource step. */
  resource?: ResourceParam;
  /** REST success status when not 200 (e.g. 202 for accepted work). */
  successStatus?: number;
  /** false: a service route with its own credential (e.g. /metrics' token); no caller lookup. */
  authenticate?: false;
  /** For operator mutations: the audit action the procedure records (a test enforces it). */
  audit?: AuditAction;
  /** What an API key needs (default: `read` for queries, `write` for mutations); `admin` also means an org admin. */
  scope?: ApiKeyScope;
};

/** What the middleware has established when the procedure runs (procedures see it narrowed). */
export interface Resolved {
  identity: Identity;
  org: OrgContext | null;
  region: RegionContext;
}

export interface MiddlewareArgs<R> {
  ctx: Context;
  meta: RouteMeta | undefined;
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  getRawInput: () => Promise<unknown>;
  /** Runs the procedure (or, for plain route handlers, the handler). */
  next: (resolved: Resolved) => Promise<R>;
}

function stampHeaders(ctx: Context): void {
  ctx.req.setHeader('X-Request-Id', ctx.requestId);
  ctx.req.setHeader('X-Region', ctx.region?.region ?? ctx.gatewayRegion);
  ctx.req.setHeader('X-Region-Source', ctx.region?.source ?? 'gateway');
}

/** Who called, for the decision record: never a secret (a key by its ID). */
function identityForRecord(identity: Identity): DecisionRecord['identity'] {
  switch (identity.kind) {
    case 'session':
      return { kind: 'session', user_id: identity.userId, operator: identity.platformOperator };
    case 'api_key':
      return { kind: 'api_key', key_id: identity.keyId, key_prefix: identity.keyPrefix };
    default:
      return { kind: 'anonymous' };
  }
}

function spanTraceId(span: Span): string | undefined {
  const id = span.spanContext().traceId;
  return /^0+$/.test(id) ? undefined : id;
}

export async function requestMiddleware<R extends { ok: boolean }>({
  ctx,
  meta,
  path,
  type,
  getRawInput,
  next,
}: MiddlewareArgs<R>): Promise<R> {
  const started = performance.now();
  const at = Date.now();
  const registry = await regionRegistry();
  ctx.gatewayRegion = gatewayRegion(ctx.req, registry);
  ctx.requestId = newRequestId(ctx.gatewayRegion);
  const route = meta?.openapi ? `${meta.openapi.method} ${meta.openapi.path}` : path;
  const routeClass: RouteClass = routeClassOf(type, path, meta?.openapi?.path);
  // Execution point 1 (server/routing/execution.ts): the unauthenticated hints narrow, grant nothing.
  const hints: HintOutcome = hintRegions(
    {
      subdomain: subdomainLabel(ctx.req),
      header: ctx.req.headers.get('x-region'),
      query: ctx.req.url.searchParams.get('region'),
      authorization: ctx.req.headers.get('authorization'),
    },
    registry.known,
  );
  const cascade: CascadeTraceStep[] = [];
  let policy: PublishedPolicy | undefined;
  let hintRefused = false;
  let routedAt = 0;

  return withRequestSpan(`${ctx.req.transport} ${route}`, ctx.req.headers.get('traceparent'), async (span) => {
    let status = 200;
    let error: AppError | undefined;
    let resolutionSeconds: number | undefined;
    try {
      readConsistencyHeaders(ctx, type === 'mutation');
      if (meta?.authenticate !== false) ctx.identity = await authenticate(ctx);
      ctx.org = orgOf(ctx.identity);
      ctx.principal = principalOf(ctx.identity);
      // Execution point 2 starts: the organization's policy (the platform default without one)
      // gives the allowed regions the cascade checks and the data layer's gate rules.
      await ensurePolicies();
      policy = appliedPolicy(ctx.org?.id ?? null);
      // The organization's own version; an organization the store has no version of yet (one
      // created a moment ago) gets the platform default's rules with its own regions.
      const content = ctx.org && policy.orgId === ctx.org.id ? policy.content : undefined;
      ctx.routing = {
        rules: {
          ...readRulesFor(policy.content, routeClass),
          allowed: ctx.org ? (content?.allowed_regions ?? ctx.org.allowedRegions) : null,
        },
        decisions: [],
      };
      requireAccess(meta?.access ?? 'public', ctx.identity);
      requireScope(meta?.scope ?? (type === 'query' ? 'read' : 'write'), ctx.identity);
      if (type === 'mutation' && ctx.identity.kind === 'session') assertSameOrigin(ctx.req);
      // Public routes (the page shell's ping, health) answer whoever asks.
      if ((meta?.access ?? 'public') !== 'public') assertSessionAtHome(ctx.identity, ctx.gatewayRegion, registry);
      if (type === 'mutation') assertWorkspaceWritable(ctx.identity);
      if (
        idempotencyRequired(content, routeClass, ctx.identity.kind === 'api_key') &&
        !ctx.consistency.idempotencyKey
      ) {
        throw new AppError(
          'invalid_request',
          'this organization’s routing policy requires an Idempotency-Key header on every write',
          { extra: { details: [{ path: ['Idempotency-Key'], message: 'required by the routing policy' }] } },
        );
      }
      const rawInput = await getRawInput();
      assertNoNul(rawInput);

      const t0 = performance.now();
      const region: RegionContext =
        meta?.region === 'gateway'
          ? { region: ctx.gatewayRegion, source: 'gateway' }
          : await resolveRequestRegion({
              req: ctx.req,
              identity: ctx.identity,
              registry,
              gatewayRegion: ctx.gatewayRegion,
              rawInput,
              mutation: type === 'mutation',
              resource: meta?.resource,
              allowedRegions: content?.allowed_regions,
              trace: cascade,
            });
      // The hints' recheck: the verified request's region must be one they left.
      if (meta?.region !== 'gateway' && !withinHints(hints, region.region, region.source === 'fan-out')) {
        hintRefused = true;
        throw new AppError(
          'invalid_region',
          `this request's region hints allow only ${hints.regions.join(', ') || 'no region'}, not ${region.region}`,
          { extra: { region: region.region } },
        );
      }
      ctx.region = region;
      // Reads before this point looked things up for routing (a resource's region): the
      // record describes what the request itself did after.
      routedAt = ctx.routing.decisions.length;
      resolutionSeconds = (performance.now() - t0) / 1000;
      ctx.requestId = withRegion(ctx.requestId, region.region);
      stampHeaders(ctx);

      const result = await next({ identity: ctx.identity, org: ctx.org, region });
      stampConsistencyHeaders(ctx);
      if (!result.ok) throw (result as unknown as { error: unknown }).error;
      status = ctx.req.transport === 'rest' ? (ctx.response.status ?? meta?.successStatus ?? 200) : 200;
      return result;
    } catch (e) {
      error = toAppError(e);
      status = error.status;
      stampHeaders(ctx);
      stampConsistencyHeaders(ctx);
      if (error.retryAfter !== undefined) ctx.req.setHeader('Retry-After', String(error.retryAfter));
      for (const [k, v] of Object.entries(error.headers)) ctx.req.setHeader(k, v);
      throw trpcErrorFor(error);
    } finally {
      const latencyMs = performance.now() - started;
      recordRequest(ctx, span, { route, status, error, latencyMs, resolutionSeconds });
      recordDecision(
        buildDecisionRecord({
          requestId: ctx.requestId,
          traceId: traceIdOf(ctx.req.headers.get('traceparent')) ?? spanTraceId(span),
          at,
          door: ctx.req.transport,
          method: ctx.req.method,
          route,
          gatewayRegion: ctx.gatewayRegion,
          gatewayId: gatewayId(),
          identity: identityForRecord(ctx.identity),
          orgId: ctx.org?.id ?? null,
          routeClass,
          policy: policy ? { version: formatVersion(policy.version), scope: policy.orgId ?? 'default' } : null,
          hintRegions: hints.regions,
          cascade,
          region: ctx.region,
          gatewayRoute: meta?.region === 'gateway',
          decisions: ctx.routing?.decisions.slice(routedAt) ?? [],
          servedBy: ctx.consistency.servedBy,
          degraded: ctx.consistency.degraded,
          status,
          errorCode: error?.code,
          hintRefused,
          latencyMs,
        }),
      );
    }
  });
}
