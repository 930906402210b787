// Atlas' proxy status: per running gateway process, the routing policy version it has applied
// and when, against the store's newest version. `synced`: it has applied the newest; `stale`:
// it is alive (heartbeat) but behind; `gone`: no heartbeat for GONE_AFTER_MS.
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { run } from '../db/sql';
import { gatewayRows, type RefusedChange } from './policy-sync.sql';
import { compareVersions, formatVersion, type PolicyVersion } from './policy';

/** Three missed heartbeats (server/routing/applied.ts HEARTBEAT_MS). */
export const GONE_AFTER_MS = 30_000;

export type GatewaySyncStatus = 'synced' | 'stale' | 'gone';

export interface GatewayPolicyStatus {
  gateway_id: string;
  region: string;
  host: string;
  pid: number;
  applied_version: string | null;
  applied_at: string | null;
  seen_at: string;
  status: GatewaySyncStatus;
  refused: RefusedChange | null;
}

/** Pure: one gateway's status from its row, the newest version and the time. */
export function gatewayStatus(
  applied: PolicyVersion | null,
  latest: PolicyVersion | null,
  seenAt: Date,
  now: number,
): GatewaySyncStatus {
  if (now - seenAt.getTime() > GONE_AFTER_MS) return 'gone';
  if (!latest) return 'synced';
  return applied && compareVersions(applied, latest) >= 0 ? 'synced' : 'stale';
}

export async function policyGateways(
  req: DataRequest,
): Promise<{ latest_version: string | null; data: GatewayPolicyStatus[]; next_cursor: null }> {
  // Replica-served like any Atlas read: lag is far below GONE_AFTER_MS (and the caller's own
  // writes are waited for).
  const rows = await read(req, (db) => run(db, gatewayRows));
  const latest = rows[0]?.latest ?? null;
  const now = rows[0]?.now.getTime() ?? Date.now();
  return {
    latest_version: latest ? formatVersion(latest) : null,
    data: rows
      .filter((r) => r.gateway_id !== null)
      .map((r) => ({
        gateway_id: r.gateway_id!,
        region: r.region,
        host: r.host,
        pid: r.pid,
        applied_version: r.applied ? formatVersion(r.applied) : null,
        applied_at: r.applied_at?.toISOString() ?? null,
        seen_at: r.seen_at.toISOString(),
        status: gatewayStatus(r.applied, latest, r.seen_at, now),
        refused: r.refused ?? null,
      })),
    next_cursor: null,
  };
}
