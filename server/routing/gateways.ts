// Atlas' proxy status: per running gateway process, the routing policy version it has applied
// and when, against the store's newest version. `synced`: it has applied the newest; `stale`:
// it is alive (heartbeat) but behind; `gone`: no heartbeat for GONE_AFTER_MS.
import { z } from 'zod';
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import { run } from '../db/sql';
import { gatewayRows } from './gateways.sql';
import { compareVersions, formatVersion, type PolicyVersion } from './policy';

/** Three missed heartbeats (server/routing/applied.ts HEARTBEAT_MS). */
export const GONE_AFTER_MS = 30_000;

const GATEWAY_SYNC_STATUSES = ['synced', 'stale', 'gone'] as const;
export type GatewaySyncStatus = (typeof GATEWAY_SYNC_STATUSES)[number];

/** Per gateway process: what it applied, when it was last seen, and its last refusal. */
export const gatewayPolicyStatusView = z.object({
  gateway_id: z.string(),
  region: z.string(),
  host: z.string(),
  pid: z.number(),
  applied_version: z.string().nullable(),
  applied_at: z.string().nullable(),
  seen_at: z.string(),
  status: z.enum(GATEWAY_SYNC_STATUSES),
  refused: z.object({ version: z.string(), org: z.string(), reason: z.string(), at: z.string() }).nullable(),
});
export type GatewayPolicyStatus = z.infer<typeof gatewayPolicyStatusView>;

export const policyGatewaysView = z.object({
  latest_version: z.string().nullable(),
  data: z.array(gatewayPolicyStatusView),
  next_cursor: z.null(),
});

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

export async function policyGateways(req: DataRequest): Promise<z.infer<typeof policyGatewaysView>> {
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
