// The SQL of request_decisions (UNLOGGED, on the primary only): the decision log's batched
// writes and retention, and explain's look-ups.
import { command, statement, type RawRow } from '../db/sql';
import { COLUMNS, type DecisionRow } from './decision-row';

/** A batch write's client-side limit: a slow primary must not hold the log's one write for long. */
export const WRITE_TIMEOUT_MS = 5_000;

const decisionRow = (r: RawRow): DecisionRow => ({
  request_id: r.request_id as string,
  at: r.at as Date,
  trace_id: r.trace_id as string | null,
  org_id: r.org_id as string | null,
  gateway_region: r.gateway_region as string,
  status: Number(r.status),
  reason_code: r.reason_code as string,
  detail: r.detail as Record<string, unknown>,
});

/** One statement for the whole batch: arrays per column (decision-row.ts `parameters`), unnested into rows. */
export const insertDecisions = command<unknown[]>(
  'routing.insert_decisions',
  `INSERT INTO request_decisions (${COLUMNS.join(', ')}, detail)
   SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::jsonb[])
   ON CONFLICT (request_id) DO NOTHING`,
  { timeoutMs: WRITE_TIMEOUT_MS },
);

/** Up to `limit` records older than `before`, found through the `at` index, deleted by ctid. */
export const deleteOldDecisions = command<[before: string, limit: number]>(
  'routing.delete_old_decisions',
  `DELETE FROM request_decisions WHERE ctid = ANY(ARRAY(
     SELECT ctid FROM request_decisions WHERE at < $1::timestamptz ORDER BY at LIMIT $2::int))`,
  { timeoutMs: 30_000 },
);

const SELECT = `SELECT ${[...COLUMNS, 'detail'].join(', ')} FROM request_decisions`;

/** The record of a request ID, if the viewer (an operator, or that organization) may see it. */
export const visibleDecision = statement<DecisionRow, [requestId: string, operator: boolean, orgId: string | null]>(
  'routing.visible_decision',
  `${SELECT} WHERE request_id = $1::text AND ($2::boolean OR ($3::text IS NOT NULL AND org_id = $3::text))`,
  decisionRow,
);

/**
 * The other records of a trace within one tenant: the organization's, or (a request with none)
 * one signed-in user's.
 */
export const traceDecisions = statement<
  DecisionRow,
  [traceId: string, except: string, orgId: string | null, userId: string | null, limit: number]
>(
  'routing.trace_decisions',
  `${SELECT}
   WHERE trace_id = $1::text AND request_id <> $2::text
     AND (CASE WHEN $3::text IS NOT NULL THEN org_id = $3::text
          ELSE org_id IS NULL AND $4::text IS NOT NULL AND detail->'identity'->>'user_id' = $4::text END)
   ORDER BY at, request_id LIMIT $5::int`,
  decisionRow,
);

/** When the primary last started (an UNLOGGED table is emptied by its crash recovery). */
export const primaryStartTime = statement<Date, []>(
  'routing.primary_start_time',
  'SELECT pg_postmaster_start_time() AS started',
  (r) => r.started as Date,
);
