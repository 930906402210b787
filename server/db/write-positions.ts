// Principals' write positions: where a read must have caught up to, and the statement after a
// commit that returns (and announces) a write's position (docs/flows/reads-and-writes.md).
import type pg from 'pg';
import { parseLsn } from './lsn';
import { POSITION_TTL_MS, WRITES_CHANNEL, writePositionState as state } from './write-position-state';

/** Positions held at most (the oldest go first): bounds memory under a flood of principals. */
const MAX_PRINCIPALS = 200_000;

/** The principal a request acts as, for sticky positions: `key:<id>`, `user:<id>`, or none. */
export function principalOf(identity: { kind: string; keyId?: string; userId?: string }): string | undefined {
  if (identity.kind === 'api_key' && identity.keyId) return `key:${identity.keyId}`;
  if (identity.kind === 'session' && identity.userId) return `user:${identity.userId}`;
  return undefined;
}

/** Records `principal`'s position (never moving it back); the oldest go first past MAX_PRINCIPALS. */
export function remember(principal: string, lsn: bigint, now = Date.now()): void {
  const s = state();
  const old = s.positions.get(principal);
  if (old && old.lsn >= lsn) return;
  s.positions.delete(principal); // re-insert: the map stays ordered by last write
  s.positions.set(principal, { lsn, at: now });
  if (s.positions.size > MAX_PRINCIPALS) s.positions.delete(s.positions.keys().next().value!);
}

/**
 * The position a read by `principal` must see: a bigint to wait for, `unknown` when this process
 * cannot tell (not listening: read from the primary), or undefined (nothing to wait for).
 * One Map look-up; never a query.
 */
export function requiredPosition(principal: string | undefined): bigint | 'unknown' | undefined {
  if (principal === undefined) return undefined;
  const s = state();
  if (!s.listening) return 'unknown';
  const now = Date.now();
  const own = s.positions.get(principal);
  const mine = own && now - own.at < POSITION_TTL_MS ? own.lsn : undefined;
  const floor = s.floor && now - s.floor.at < POSITION_TTL_MS ? s.floor.lsn : undefined;
  if (mine === undefined) return floor;
  return floor === undefined || mine > floor ? mine : floor;
}

/** A notification a write sends once it has committed: a hint that carries no data (e.g. waking workers). */
export interface CommitHint {
  channel: string;
  payload: string;
  /**
   * Sent only if this workflow run (`run_…`) or webhook event (`msg_…`) exists by then: a hint
   * that goes out with a single-statement write's flight, before anyone knows whether the
   * statement created what it announces.
   */
  ifExists?: string;
}

/**
 * The statement that, right after a commit, reads the bookmark, tells every gateway the
 * principal's new position (`w <principal> <lsn> <sent ms> <gateway>`) and sends the write's
 * hint, if any: one round trip, its own tiny transaction, committed asynchronously (it carries
 * no data: a notice lost to a crash costs a read on the primary, a hint one queue poll).
 * Parameters: the principal or null, the time sent (ms since the epoch), this gateway's ID, the
 * hint's channel and payload or nulls, and the run or event the hint needs (or null). Named: each
 * connection parses and plans it once.
 */
const BOOKMARK_STATEMENT = {
  name: 'meridian_bookmark',
  text:
    "SELECT set_config('synchronous_commit', 'off', true) AS _sc, l::text AS lsn, " +
    `CASE WHEN $1::text IS NOT NULL THEN pg_notify('${WRITES_CHANNEL}', 'w ' || $1 || ' ' || l::text || ' ' || $2 || ' ' || $3) END AS _n, ` +
    'CASE WHEN $4::text IS NOT NULL AND ($6::text IS NULL OR EXISTS (SELECT 1 FROM workflow_runs WHERE id = $6) ' +
    'OR EXISTS (SELECT 1 FROM webhook_events WHERE id = $6)) ' +
    'THEN pg_notify($4, $5) END AS _h FROM pg_current_wal_insert_lsn() l',
};

/** BOOKMARK_STATEMENT with its parameters, for `principal` and `hint` (either may be absent). */
export function bookmarkQuery(principal: string | undefined, hint: CommitHint | undefined) {
  return {
    ...BOOKMARK_STATEMENT,
    values: [
      principal ?? null,
      String(Date.now()),
      state().id,
      hint?.channel ?? null,
      hint?.payload ?? null,
      hint?.ifExists ?? null,
    ],
  };
}

/** Runs BOOKMARK_STATEMENT on `pool` (the primary's): the position after the caller's commit. */
export async function commitPosition(
  pool: pg.Pool,
  principal: string | undefined,
  hint: CommitHint | undefined,
): Promise<bigint | undefined> {
  const { rows } = await pool.query<{ lsn: string }>(bookmarkQuery(principal, hint));
  return parseLsn(rows[0]!.lsn);
}

/** Records this process's own write at once (the notice is for the other gateways). */
export function noteOwnWrite(principal: string, lsn: bigint): void {
  remember(principal, lsn);
}

/** Drops positions older than the TTL (the map is ordered by last write: stop at the first young one). */
export function sweepPositions(now = Date.now()): void {
  const s = state();
  for (const [p, pos] of s.positions) {
    if (now - pos.at < POSITION_TTL_MS) break;
    s.positions.delete(p);
  }
  if (s.floor && now - s.floor.at >= POSITION_TTL_MS) s.floor = undefined;
}
