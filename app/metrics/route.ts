import { serviceRoute } from '~/server/api/adapters/service-route';
import { metrics } from '~/server/telemetry/metrics';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'service.metrics' }, async () => {
  const body = await metrics.registry.metrics();
  return new Response(body, { headers: { 'Content-Type': metrics.registry.contentType } });
});
