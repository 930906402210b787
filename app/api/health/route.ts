// Readiness for load balancers: 200 while this gateway can reach the primary, from the health
// monitor's last probe (no query per call, so a flood of health checks costs the database
// nothing). Per-region detail: /health/region.
import { ensureHealthMonitor, primaryHealth } from '~/server/db/health';

export const dynamic = 'force-dynamic';

export async function GET() {
  await ensureHealthMonitor();
  const up = primaryHealth().up;
  return Response.json(
    { status: up ? 'ok' : 'primary_unreachable' },
    { status: up ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
