// GET /health/region: this gateway's region, its replica's lag, the primary's reachability, uptime,
// and every other region's replica as this gateway sees it (error text for operators only).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { isOperator } from '~/server/auth/identity';
import { ensureHealthMonitor } from '~/server/db/health';
import { healthReport } from '~/server/db/health-report';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'service.health' }, async (ctx) => {
  await ensureHealthMonitor();
  return Response.json(healthReport(ctx.gatewayRegion, isOperator(ctx.identity)), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
