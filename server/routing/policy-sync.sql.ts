// The SQL of routing_policy_gateways: each running gateway process's row (what it has applied,
// its last refusal, its heartbeat), written by the process itself and read by Atlas.
import { command, statement } from '../db/sql';
import type { PolicyVersion } from './policy';

export interface RefusedChange {
  version: string;
  org: string;
  reason: string;
  at: string;
}

export interface GatewayRow {
  /** null on the one row of a store no gateway reported to yet. */
  gateway_id: string | null;
  region: string;
  host: string;
  pid: number;
  applied: PolicyVersion | null;
  applied_at: Date | null;
  refused: RefusedChange | null;
  seen_at: Date;
  /** The store's newest version (any organization's), on every row. */
  latest: PolicyVersion | null;
  /** The database's clock. */
  now: Date;
}

const version = (epoch: unknown, sequence: unknown): PolicyVersion | null =>
  epoch !== null && epoch !== undefined ? { epoch: Number(epoch), sequence: Number(sequence) } : null;

/** Every gateway's row with the store's newest version; one row of nulls when there is none. */
export const gatewayRows = statement<GatewayRow, []>(
  'routing.gateway_rows',
  `SELECT g.*, l.epoch AS latest_epoch, l.sequence AS latest_sequence, now() AS now
   FROM (SELECT 1) one
   LEFT JOIN routing_policy_gateways g ON TRUE
   LEFT JOIN LATERAL (SELECT epoch, sequence FROM routing_policies ORDER BY epoch DESC, sequence DESC LIMIT 1) l ON TRUE
   ORDER BY g.region, g.host, g.pid, g.gateway_id`,
  (r) => ({
    gateway_id: r.gateway_id as string | null,
    region: r.region as string,
    host: r.host as string,
    pid: r.pid as number,
    applied: version(r.applied_epoch, r.applied_sequence),
    applied_at: r.applied_at as Date | null,
    refused: (r.refused ?? null) as RefusedChange | null,
    seen_at: r.seen_at as Date,
    latest: version(r.latest_epoch, r.latest_sequence),
    now: r.now as Date,
  }),
);

/** This gateway's heartbeat: what it has applied and its last refusal. */
export const reportGateway = command<
  [
    gatewayId: string,
    region: string,
    host: string,
    pid: number,
    appliedEpoch: number | null,
    appliedSequence: number | null,
    appliedAt: Date | null,
    refused: string | null,
  ]
>(
  'routing.report_gateway',
  `INSERT INTO routing_policy_gateways
     (gateway_id, region, host, pid, applied_epoch, applied_sequence, applied_at, refused, seen_at)
   VALUES ($1::text, $2::text, $3::text, $4::int, $5::int, $6::bigint, $7::timestamptz, $8::jsonb, now())
   ON CONFLICT (gateway_id) DO UPDATE SET
     region = EXCLUDED.region, applied_epoch = EXCLUDED.applied_epoch,
     applied_sequence = EXCLUDED.applied_sequence, applied_at = EXCLUDED.applied_at,
     refused = EXCLUDED.refused, seen_at = now()`,
);

/** Rows of gateways without a heartbeat since `before`. */
export const forgetGateways = command<[before: Date]>(
  'routing.forget_gateways',
  'DELETE FROM routing_policy_gateways WHERE seen_at < $1::timestamptz',
);
