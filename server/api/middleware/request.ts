// THE request middleware, for every procedure whichever door it came in by: the stages of
// pipeline.ts inside the request's span, then the procedure, then what every answer gets.
import { countRoundTrips, type RoundTrips } from '../../db/round-trips';
import { decisionLogEnabled, recordDecision } from '../../routing/decision-log';
import { requestDecisionRecord } from '../../routing/decision-record';
import { withRequestSpan } from '../../telemetry/tracing';
import type { AppError } from '../../errors';
import type { Context } from '../context';
import { stampConsistencyHeaders } from './consistency-headers';
import { toAppError, trpcErrorFor } from './error-mapping';
import { runStages } from './pipeline';
import { stampRequestHeaders } from './request-headers';
import { recordRequest } from './request-telemetry';
import type { ProcedureType, Resolved, RouteMeta } from './route-meta';
import { arrive, resolvedRegion } from './stage';

export type { Resolved, RouteMeta } from './route-meta';

export interface MiddlewareArgs<R> {
  ctx: Context;
  meta: RouteMeta | undefined;
  path: string;
  type: ProcedureType;
  getRawInput: () => Promise<unknown>;
  /** Runs the procedure (or, for plain route handlers, the handler). */
  next: (resolved: Resolved) => Promise<R>;
}

export function requestMiddleware<R extends { ok: boolean }>(args: MiddlewareArgs<R>): Promise<R> {
  // Every statement the request sends, to which database: its cost when the primary is far away.
  return countRoundTrips((trips) => handle(args, trips));
}

async function handle<R extends { ok: boolean }>(
  { next, ...arrival }: MiddlewareArgs<R>,
  trips: RoundTrips,
): Promise<R> {
  const s = await arrive(arrival);
  const { ctx, meta } = s;

  return withRequestSpan(`${ctx.req.transport} ${s.route}`, ctx.req.headers.get('traceparent'), async (span) => {
    let status = 200;
    let error: AppError | undefined;
    try {
      await runStages(s);
      const result = await next({ identity: ctx.identity, org: ctx.org, region: resolvedRegion(s).region });
      stampConsistencyHeaders(ctx);
      if (!result.ok) throw (result as unknown as { error: unknown }).error;
      status = ctx.req.transport === 'rest' ? (ctx.response.status ?? meta?.successStatus ?? 200) : 200;
      return result;
    } catch (e) {
      error = toAppError(e);
      status = error.status;
      stampRequestHeaders(ctx);
      stampConsistencyHeaders(ctx);
      if (error.retryAfter !== undefined) ctx.req.setHeader('Retry-After', String(error.retryAfter));
      for (const [k, v] of Object.entries(error.headers)) ctx.req.setHeader(k, v);
      throw trpcErrorFor(error);
    } finally {
      const latencyMs = performance.now() - s.started;
      recordRequest(ctx, span, { route: s.route, status, error, latencyMs, resolutionSeconds: s.resolutionSeconds });
      // Built only where records are kept (MERIDIAN_DECISION_LOG): the bench's OFF pays nothing for them.
      if (decisionLogEnabled())
        recordDecision(
          requestDecisionRecord({
            requestId: ctx.requestId,
            traceparent: ctx.req.headers.get('traceparent'),
            spanTraceId: span.spanContext().traceId,
            at: s.at,
            door: ctx.req.transport,
            method: ctx.req.method,
            route: s.route,
            gatewayRegion: ctx.gatewayRegion,
            identity: ctx.identity,
            orgId: ctx.org?.id ?? null,
            routeClass: s.routeClass,
            policy: s.policy,
            hints: s.hints,
            cascade: s.cascade,
            region: ctx.region,
            gatewayRoute: meta?.region === 'gateway',
            decisions: ctx.routing?.decisions.slice(s.routedAt) ?? [],
            servedBy: ctx.consistency.servedBy,
            degraded: ctx.consistency.degraded,
            status,
            errorCode: error?.code,
            hintRefused: s.hintRefused,
            latencyMs,
            roundTrips: trips,
          }),
        );
    }
  });
}
