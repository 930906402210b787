// The SQL of request_decision_batches (hourly UNLOGGED partitions, on the primary only): the
// decision log's batched writes and partition upkeep, and explain's look-ups.
import { command, statement, type RawRow } from '../db/sql';
import type { DecisionBatch } from './decision-batch';

/** A batch write's client-side limit: a slow primary must not hold the log's one write for long. */
export const WRITE_TIMEOUT_MS = 5_000;
/** PostgreSQL's "no partition of relation … found for row". */
export const NO_PARTITION = '23514';

export interface StoredBatch {
  firstAt: number;
  payload: Buffer;
}

const storedBatch = (r: RawRow): StoredBatch => ({
  firstAt: (r.first_at as Date).getTime(),
  payload: r.payload as Buffer,
});

/**
 * Every batch of a flush with one statement: a column per parameter, unnested into rows (the
 * ragged org and trace lists travel as JSON arrays).
 */
export const insertBatches = command<
  [
    regions: string[],
    firstAt: string[],
    lastMs: number[],
    records: number[],
    orgIds: string[],
    traceIds: string[],
    payloads: Buffer[],
  ]
>(
  'routing.insert_decision_batches',
  `INSERT INTO request_decision_batches (region, first_at, last_ms, records, org_ids, trace_ids, payload)
   SELECT b.region, b.first_at, b.last_ms, b.records,
          ARRAY(SELECT jsonb_array_elements_text(b.org_ids)), ARRAY(SELECT jsonb_array_elements_text(b.trace_ids)),
          b.payload
     FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::int[], $5::jsonb[], $6::jsonb[], $7::bytea[])
       AS b(region, first_at, last_ms, records, org_ids, trace_ids, payload)`,
  { timeoutMs: WRITE_TIMEOUT_MS },
);

/** The batches as `insertBatches`' columns. */
export function batchParameters(
  batches: DecisionBatch[],
): [string[], string[], number[], number[], string[], string[], Buffer[]] {
  return [
    batches.map((b) => b.region),
    batches.map((b) => new Date(b.firstAt).toISOString()),
    batches.map((b) => b.lastMs),
    batches.map((b) => b.records),
    batches.map((b) => JSON.stringify(b.orgIds)),
    batches.map((b) => JSON.stringify(b.traceIds)),
    batches.map((b) => b.payload),
  ];
}

/**
 * Hourly partitions covering [from, to], and the drop of those wholly before `dropBefore`
 * (meridian_decision_partitions, the owner's function): the partitions dropped, or null when
 * another process is at it right now.
 */
export const maintainPartitions = statement<number | null, [from: string, to: string, dropBefore: string]>(
  'routing.decision_partitions',
  'SELECT meridian_decision_partitions($1::timestamptz, $2::timestamptz, $3::timestamptz) AS dropped',
  (r) => (r.dropped === null ? null : Number(r.dropped)),
  { timeoutMs: 10_000 },
);

/**
 * The batches that may hold request `ms` of `region` and a record the viewer (an operator, or
 * that organization) may see. Bounded by time on both sides: only the partitions around it are read.
 */
export const batchesAt = statement<
  StoredBatch,
  [region: string, at: string, spanMs: number, operator: boolean, orgId: string | null]
>(
  'routing.decision_batches_at',
  `SELECT first_at, payload FROM request_decision_batches
    WHERE region = $1::text
      AND first_at <= $2::timestamptz AND first_at > $2::timestamptz - $3::int * interval '1 millisecond'
      AND first_at + last_ms * interval '1 millisecond' >= $2::timestamptz
      AND ($4::boolean OR ($5::text IS NOT NULL AND $5::text = ANY(org_ids)))`,
  storedBatch,
);

/**
 * The oldest batches holding records of a trace, within one tenant's reach: the organization's
 * (a batch with its records), or, for a request with none, any (explain keeps the user's own).
 */
export const batchesOfTrace = statement<
  StoredBatch,
  [traceId: string, since: string, orgId: string | null, limit: number]
>(
  'routing.decision_batches_of_trace',
  `SELECT first_at, payload FROM request_decision_batches
    WHERE trace_ids @> ARRAY[$1::text] AND first_at >= $2::timestamptz
      AND ($3::text IS NULL OR $3::text = ANY(org_ids))
    ORDER BY first_at LIMIT $4::int`,
  storedBatch,
);

/** When the primary last started (an UNLOGGED table is emptied by its crash recovery). */
export const primaryStartTime = statement<Date, []>(
  'routing.primary_start_time',
  'SELECT pg_postmaster_start_time() AS started',
  (r) => r.started as Date,
);
