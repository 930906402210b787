// Atlas' proxy status: per running gateway process, the routing policy version it has applied
// and when, against the store's newest version. `synced`: it has applied the newest; `stale`:
// it is alive (heartbeat) but behind; `gone`: no heartbeat for GONE_AFTER_MS.
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
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
  refused: { version: string; org: string; reason: string; at: string } | null;
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

type Row = {
  gateway_id: string;
  region: string;
  host: string;
  pid: number;
  applied_epoch: number | null;
  applied_sequence: bigint | null;
  applied_at: Date | null;
  refused: GatewayPolicyStatus['refused'];
  seen_at: Date;
  latest_epoch: number | null;
  latest_sequence: bigint | null;
  now: Date;
};

export async function policyGateways(
  req: DataRequest,
): Promise<{ latest_version: string | null; data: GatewayPolicyStatus[]; next_cursor: null }> {
  // Replica-served like any Atlas read: lag is far below GONE_AFTER_MS (and the caller's own
  // writes are waited for).
  const rows = await read(
    req,
    (db) => db.$queryRaw<Row[]>`
      SELECT g.*, l.epoch AS latest_epoch, l.sequence AS latest_sequence, now() AS now
      FROM (SELECT 1) one
      LEFT JOIN routing_policy_gateways g ON TRUE
      LEFT JOIN LATERAL (SELECT epoch, sequence FROM routing_policies ORDER BY epoch DESC, sequence DESC LIMIT 1) l ON TRUE
      ORDER BY g.region, g.host, g.pid, g.gateway_id`,
  );
  const first = rows[0];
  const latest =
    first && first.latest_epoch !== null
      ? { epoch: first.latest_epoch, sequence: Number(first.latest_sequence) }
      : null;
  const now = first?.now.getTime() ?? Date.now();
  return {
    latest_version: latest ? formatVersion(latest) : null,
    data: rows
      .filter((r) => r.gateway_id !== null)
      .map((r) => {
        const applied =
          r.applied_epoch !== null ? { epoch: r.applied_epoch, sequence: Number(r.applied_sequence) } : null;
        return {
          gateway_id: r.gateway_id,
          region: r.region,
          host: r.host,
          pid: r.pid,
          applied_version: applied ? formatVersion(applied) : null,
          applied_at: r.applied_at?.toISOString() ?? null,
          seen_at: r.seen_at.toISOString(),
          status: gatewayStatus(applied, latest, r.seen_at, now),
          refused: r.refused ?? null,
        };
      }),
    next_cursor: null,
  };
}
