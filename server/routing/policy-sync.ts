// Each gateway process's applied policy version, as its row of routing_policy_gateways: this
// gateway reports its own, Atlas reads them all (synced / stale / gone: docs/flows/routing-policy.md).
import os from 'node:os';
import { z } from 'zod';
import { read } from '../db/access';
import { backgroundDb } from '../db/background';
import type { DataRequest } from '../db/request-state';
import { execute, run } from '../db/sql';
import { gatewayId } from '../db/write-position-state';
import { env } from '../env';
import { appliedState, highestApplied } from './applied-state';
import { forgetGateways, gatewayRows, reportGateway } from './policy-sync.sql';
import { compareVersions, formatVersion, type PolicyVersion } from './policy';

export const HEARTBEAT_MS = 10_000;
/** Three missed heartbeats (HEARTBEAT_MS). */
export const GONE_AFTER_MS = 30_000;
/** Rows of gateways not seen for this long are deleted (Atlas shows them `gone` until then). */
const FORGET_GATEWAYS_MS = 60 * 60_000;

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

/** Upserts this gateway's row: what it has applied, its last refusal, and that it is alive. */
export async function reportApplied(): Promise<void> {
  const s = appliedState();
  const v = highestApplied(s);
  const refused = s.refused[0] ?? null;
  try {
    const db = backgroundDb();
    await execute(
      db,
      reportGateway,
      gatewayId(),
      env().MERIDIAN_GATEWAY_REGION,
      os.hostname(),
      process.pid,
      v?.epoch ?? null,
      v?.sequence ?? null,
      s.appliedAt ?? null,
      refused ? JSON.stringify(refused) : null,
    );
    await execute(db, forgetGateways, new Date(Date.now() - FORGET_GATEWAYS_MS));
  } catch {
    // The store is unreachable: the next heartbeat tries again.
  }
}

/** A clean stop: this gateway's row goes (Atlas stops listing it at once). */
export async function forgetThisGateway(): Promise<void> {
  await backgroundDb()
    .routingPolicyGateway.deleteMany({ where: { gatewayId: gatewayId() } })
    .catch(() => {});
}
