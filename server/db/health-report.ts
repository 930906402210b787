// What GET /health/region answers: this gateway's view of the primary and every replica.
import { allReplicaHealth, primaryHealth, uptimeSeconds } from './health';
import type { ReplicaHealth, ReplicaStatus } from './health-types';
import { primaryLocation } from './primary-locator';
import { primaryUrl } from './topology';

export interface HealthReportView {
  status: ReplicaStatus;
  serving_reads: boolean;
  lag_bytes: number | null;
  lag_seconds: number | null;
  checked_at: string | null;
  error: string | null;
}

/**
 * What GET /health/region answers for `gatewayRegion`. Raw database errors name hosts, ports and
 * roles: `withErrors` (operators) see them, everyone else only `unreachable`.
 */
export function healthReport(gatewayRegion: string, withErrors: boolean) {
  const error = (e: string | undefined) => (e ? (withErrors ? e : 'unreachable') : null);
  const view = (r: ReplicaHealth): HealthReportView => ({
    status: r.status,
    serving_reads: r.status === 'healthy',
    lag_bytes: r.lagBytes ?? null,
    lag_seconds: r.lagSeconds === undefined ? null : Math.round(r.lagSeconds * 1000) / 1000,
    checked_at: r.checkedAt ? new Date(r.checkedAt).toISOString() : null,
    error: error(r.error),
  });
  const replicas = Object.fromEntries(allReplicaHealth().map((r) => [r.region, view(r)]));
  const own = replicas[gatewayRegion] ?? null;
  const p = primaryHealth();
  // Several primary hosts (an HA pair): down means a failover is under way, or about to be.
  const at = primaryLocation(primaryUrl());
  return {
    region: gatewayRegion,
    status: p.up && (own === null || own.serving_reads) ? 'ok' : 'degraded',
    replica: own,
    primary: {
      reachable: p.up,
      error: error(p.error),
      failover_under_way: !!at && (!p.up || at.searching),
      ...(at && withErrors
        ? { hosts: at.hosts, current: at.current ?? null, timeline: at.timeline ?? null, moves: at.moves }
        : {}),
    },
    uptime_seconds: Math.round(uptimeSeconds()),
    replicas,
  };
}
