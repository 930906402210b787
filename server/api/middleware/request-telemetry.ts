// What the request middleware records about every request once it is answered: the span's
// attributes, the Prometheus metrics and the one pino log line, all from the same values.
import type { AppError } from '../../errors';
import { logger } from '../../telemetry/logger';
import { metrics } from '../../telemetry/metrics';
import { recordRegionRequest } from '../../telemetry/region-traffic';
import { SpanStatusCode, type Span } from '../../telemetry/tracing';
import type { Context } from '../context';

export interface RequestOutcome {
  route: string;
  status: number;
  error?: AppError;
  latencyMs: number;
  /** Time the region cascade took; undefined when the request failed before it ran. */
  resolutionSeconds?: number;
}

export function recordRequest(ctx: Context, span: Span, o: RequestOutcome): void {
  const region = ctx.region?.region ?? ctx.gatewayRegion;
  const source = ctx.region?.source ?? 'gateway';
  const transport = ctx.req.transport;
  span.setAttributes({
    region,
    region_source: source,
    request_id: ctx.requestId,
    org_id: ctx.org?.id ?? '',
    latency_ms: o.latencyMs,
    status_code: o.status,
    'meridian.transport': transport,
    'http.route': o.route,
  });
  if (o.error) span.setStatus({ code: SpanStatusCode.ERROR, message: o.error.code });
  span.end();
  if (o.resolutionSeconds !== undefined) metrics.resolutionSeconds.observe({ source }, o.resolutionSeconds);
  metrics.requests.inc({ region, source, transport });
  if (o.error) metrics.errors.inc({ code: o.error.code, transport });
  metrics.requestSeconds.observe(
    { route: o.route, method: ctx.req.method, status: String(o.status) },
    o.latencyMs / 1000,
  );
  // Atlas' per-region window: anything but GET/HEAD is a write (it crosses to the primary).
  recordRegionRequest(region, /^(GET|HEAD)$/i.test(ctx.req.method) ? 'read' : 'write', o.status, o.latencyMs);
  if (o.error?.code === 'internal_error') {
    logger.error({ request_id: ctx.requestId, err: o.error.cause }, 'unhandled error');
  }
  logger.info(
    {
      request_id: ctx.requestId,
      transport,
      method: ctx.req.method,
      route: o.route,
      region,
      region_source: source,
      org_id: ctx.org?.id,
      status: o.status,
      code: o.error?.code,
      latency_ms: Math.round(o.latencyMs * 100) / 100,
    },
    'request',
  );
}
