// THE request middleware. Every procedure runs behind it, whichever door the request came in
// by (REST, tRPC, server action), so region resolution, request IDs, authentication, access
// checks, tracing, metrics, the per-request log line and error mapping exist exactly once.
import { TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import { orgOf } from '../../auth/identity';
import { AppError, isAppError } from '../../errors';
import { newRequestId, withRegion } from '../../ids';
import { regionRegistry } from '../../region/registry';
import { logger } from '../../telemetry/logger';
import { metrics } from '../../telemetry/metrics';
import { SpanStatusCode, tracer } from '../../telemetry/tracing';
import type { Context } from '../context';
import { authenticate, requireAccess, type Access } from './authenticate';
import { readDataHeaders, stampDataHeaders } from './data-headers';
import { gatewayRegion } from './gateway';
import { resolveRequestRegion, type ResourceParam } from './resolve-region';

export type RouteMeta = OpenApiMeta & {
  access?: Access;
  /** `gateway`: a service route that answers for the gateway itself (no cascade). */
  region?: 'scoped' | 'gateway';
  /** The path parameter naming the resource, for the cascade's resource step. */
  resource?: ResourceParam;
  /** REST success status when not 200 (e.g. 202 for accepted work). */
  successStatus?: number;
};

export interface MiddlewareArgs<R> {
  ctx: Context;
  meta: RouteMeta | undefined;
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  getRawInput: () => Promise<unknown>;
  /** Runs the procedure (or, for plain route handlers, the handler). */
  next: () => Promise<R>;
}

const TRPC_CODE: Record<number, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  421: 'BAD_REQUEST', // tRPC has no 421: the adapters take the status from the AppError
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** Any thrown value as a contract error. Unknown errors become internal_error (and are logged). */
export function toAppError(e: unknown): AppError {
  if (isAppError(e)) return e;
  if (e instanceof TRPCError) {
    if (isAppError(e.cause)) return e.cause;
    if (e.cause instanceof ZodError) {
      return new AppError('invalid_request', 'the request does not match the expected input', {
        extra: { details: e.cause.issues.map((i) => ({ path: i.path, message: i.message })) },
      });
    }
    switch (e.code) {
      case 'PARSE_ERROR':
      case 'BAD_REQUEST':
        return new AppError('invalid_request', e.message);
      case 'NOT_FOUND':
        return new AppError('not_found', e.message);
      case 'UNAUTHORIZED':
        return new AppError('unauthenticated', e.message);
      case 'FORBIDDEN':
        return new AppError('forbidden', e.message);
      case 'METHOD_NOT_SUPPORTED':
        return new AppError('method_not_allowed', e.message);
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new AppError('unsupported_media_type', e.message);
      case 'PAYLOAD_TOO_LARGE':
        return new AppError('payload_too_large', e.message);
      case 'CONFLICT':
        return new AppError('conflict', e.message);
      default:
        break;
    }
  }
  return new AppError('internal_error', 'something went wrong on our side; the request ID helps us find it', {
    cause: e,
  });
}

export function trpcErrorFor(err: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE[err.status] ?? 'INTERNAL_SERVER_ERROR', message: err.message, cause: err });
}

function stampHeaders(ctx: Context): void {
  ctx.req.setHeader('X-Request-Id', ctx.requestId);
  ctx.req.setHeader('X-Region', ctx.region?.region ?? ctx.gatewayRegion);
  ctx.req.setHeader('X-Region-Source', ctx.region?.source ?? 'gateway');
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
  const registry = await regionRegistry();
  ctx.gatewayRegion = gatewayRegion(ctx.req, registry);
  ctx.requestId = newRequestId(ctx.gatewayRegion);
  const route = meta?.openapi ? `${meta.openapi.method} ${meta.openapi.path}` : path;

  return tracer.startActiveSpan(`${ctx.req.transport} ${route}`, async (span) => {
    let status = 200;
    let error: AppError | undefined;
    let resolutionSeconds = 0;
    try {
      readDataHeaders(ctx, type === 'mutation');
      ctx.identity = await authenticate(ctx);
      ctx.org = orgOf(ctx.identity);
      requireAccess(meta?.access ?? 'public', ctx.identity);

      const t0 = performance.now();
      if (meta?.region === 'gateway') {
        ctx.region = { region: ctx.gatewayRegion, source: 'gateway' };
      } else {
        ctx.region = await resolveRequestRegion({
          req: ctx.req,
          identity: ctx.identity,
          registry,
          gatewayRegion: ctx.gatewayRegion,
          rawInput: await getRawInput(),
          mutation: type === 'mutation',
          resource: meta?.resource,
        });
      }
      resolutionSeconds = (performance.now() - t0) / 1000;
      ctx.requestId = withRegion(ctx.requestId, ctx.region.region);
      stampHeaders(ctx);

      const result = await next();
      stampDataHeaders(ctx);
      if (!result.ok) throw (result as unknown as { error: unknown }).error;
      status = ctx.req.transport === 'rest' ? (ctx.responseStatus ?? meta?.successStatus ?? 200) : 200;
      return result;
    } catch (e) {
      error = toAppError(e);
      status = error.status;
      stampHeaders(ctx);
      stampDataHeaders(ctx);
      if (error.retryAfter !== undefined) ctx.req.setHeader('Retry-After', String(error.retryAfter));
      for (const [k, v] of Object.entries(error.headers)) ctx.req.setHeader(k, v);
      if (error.code === 'internal_error') {
        logger.error({ request_id: ctx.requestId, err: error.cause }, 'unhandled error');
      }
      throw trpcErrorFor(error);
    } finally {
      const latencyMs = performance.now() - started;
      const region = ctx.region?.region ?? ctx.gatewayRegion;
      const source = ctx.region?.source ?? 'gateway';
      span.setAttributes({
        region,
        region_source: source,
        request_id: ctx.requestId,
        org_id: ctx.org?.id ?? '',
        latency_ms: latencyMs,
        status_code: status,
        'meridian.transport': ctx.req.transport,
        'http.route': route,
      });
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
      span.end();
      if (ctx.region) metrics.resolutionSeconds.observe({ source }, resolutionSeconds);
      metrics.requests.inc({ region, source, transport: ctx.req.transport });
      if (error) metrics.errors.inc({ code: error.code, transport: ctx.req.transport });
      metrics.requestSeconds.observe({ route, method: ctx.req.method, status: String(status) }, latencyMs / 1000);
      logger.info(
        {
          request_id: ctx.requestId,
          transport: ctx.req.transport,
          method: ctx.req.method,
          route,
          region,
          region_source: source,
          org_id: ctx.org?.id,
          status,
          code: error?.code,
          latency_ms: Math.round(latencyMs * 100) / 100,
        },
        'request',
      );
    }
  });
}
