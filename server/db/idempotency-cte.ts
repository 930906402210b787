// The Idempotency-Key record of a single-statement write (idempotentStatement, idempotency.ts):
// the CTEs that read a fresh record under the key and keep the change's own, and what they answer.
import type { PriorRecord } from './idempotency';

/** The `prior` column a statement selects (`row_to_json` of the prior CTE). */
export interface PriorRow {
  request_hash: string;
  response_status: number;
  response_body: unknown;
}

/**
 * `prior AS (…)`: the record under the key `$key` (null: none, so no row) of the organization
 * `$org`, if fresh (younger than `$ttlHours`). A statement changes nothing when it found one.
 */
export function priorRecordCte(p: { org: number; key: number; ttlHours: number }): string {
  return `prior AS (
    SELECT request_hash, response_status, response_body FROM idempotency_keys
    WHERE org_id = $${p.org}::text AND key = $${p.key}::text
      AND created_at >= now() - make_interval(hours => $${p.ttlHours}::int)
  )`;
}

/**
 * `record AS (INSERT …)`: the record of the change the CTE `source` made (a row), under `$key`
 * when one came: `$hash` the request's hash, `status` the answer's, `body` a jsonb expression (the
 * answer a retry gets), `$at` the change's time. A plain INSERT: a concurrent request with the key
 * fails it on the primary key, and then nothing of the statement is kept.
 */
export function keepRecordCte(
  source: string,
  p: { org: number; key: number; hash: number; at: number; status: number; body: string },
): string {
  return `record AS (
    INSERT INTO idempotency_keys (org_id, key, request_hash, response_status, response_body, created_at)
    SELECT $${p.org}::text, $${p.key}::text, $${p.hash}::text, ${p.status}, ${p.body}, $${p.at}::timestamptz
      FROM ${source} WHERE $${p.key}::text IS NOT NULL
    RETURNING 1
  )`;
}

/** The statement's `prior` column as idempotentStatement's answer: the first outcome, replayed. */
export function replayOf<T>(prior: PriorRow): { prior: PriorRecord<T> } {
  return {
    prior: { requestHash: prior.request_hash, status: prior.response_status, body: prior.response_body as T },
  };
}
