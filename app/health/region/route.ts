// GET /health/region: this gateway's region, its replica's lag, whether the primary is
// reachable, uptime, and every other region's replica as this gateway sees it.
import { serviceRoute } from '~/server/api/adapters/service-route';
import { isOperator } from '~/server/auth/identity';
import {
  allReplicaHealth,
  ensureHealthMonitor,
  primaryHealth,
  uptimeSeconds,
  type ReplicaHealth,
} from '~/server/db/health';

export const dynamic = 'force-dynamic';

// Raw database errors name hosts, ports and roles: operators see them, everyone else a status.
const view = (r: ReplicaHealth, operator: boolean) => ({
  status: r.status,
  serving_reads: r.status === 'healthy',
  lag_bytes: r.lagBytes ?? null,
  lag_seconds: r.lagSeconds === undefined ? null : Math.round(r.lagSeconds * 1000) / 1000,
  checked_at: r.checkedAt ? new Date(r.checkedAt).toISOString() : null,
  error: operator ? (r.error ?? null) : r.error ? 'unreachable' : null,
});

export const GET = serviceRoute({ name: 'service.health' }, async (ctx) => {
  await ensureHealthMonitor();
  const operator = isOperator(ctx.identity);
  const replicas = Object.fromEntries(allReplicaHealth().map((r) => [r.region, view(r, operator)]));
  const own = replicas[ctx.gatewayRegion] ?? null;
  const p = primaryHealth();
  const ok = p.up && (own === null || own.serving_reads);
  return Response.json(
    {
      region: ctx.gatewayRegion,
      status: ok ? 'ok' : 'degraded',
      replica: own,
      primary: { reachable: p.up, error: operator ? (p.error ?? null) : p.error ? 'unreachable' : null },
      uptime_seconds: Math.round(uptimeSeconds()),
      replicas,
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
