// GET /api/health: 200 while this gateway reaches the primary, from the health monitor's last probe
// (no query per call); for dashboards and alerts (docs/operations.md#health-endpoints).
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
