// GET /metrics: Prometheus text, for a token holder or a loopback scraper (metrics-access.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { metrics } from '~/server/telemetry/metrics';
import { assertMetricsAccess } from '~/server/telemetry/metrics-access';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'service.metrics', authenticate: false }, async (ctx) => {
  assertMetricsAccess(ctx.req.headers);
  const body = await metrics.registry.metrics();
  return new Response(body, { headers: { 'Content-Type': metrics.registry.contentType } });
});
