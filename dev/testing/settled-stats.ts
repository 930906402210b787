// The primary's cumulative statistics once this process's request pools have reported all they
// did: for tests that prove a request path costs the primary nothing (no read, no rollback).
import type pg from 'pg';
import { disconnectAll } from '../../server/db/client';
import { flushDecisions } from '../../server/routing/decision-log';
import { eventually } from './eventually';
import { query } from './db';

/** The app's pools whose backends carry requests' work (server/db/client.ts, write-flight.ts). */
const APP_POOLS = ['meridian-primary', 'meridian-write-flight'];

/**
 * Runs `sql` (a read of pg_stat_*) on `url`'s database after the app's request pools have reported.
 * A backend reports its counts when idle at most once a second, else only after 10 s (PostgreSQL's
 * PGSTAT_IDLE_INTERVAL), but always as it exits, before it leaves pg_stat_activity. So the pools
 * are closed and `sql` runs once every backend they had is gone: a condition, not a 10 s sleep.
 * The app opens new pools at its next query (a gateway's heartbeat every 10 s does): their
 * backends, started after the close, did none of the work before it and are not waited for.
 * Buffered decision records are written first: their batch write (whose first one in a new
 * database fails for want of a partition, a rollback) would otherwise land on either side.
 */
export async function settledStats<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  await flushDecisions();
  const [{ at }] = (await query<{ at: Date }>(url, 'SELECT clock_timestamp() AS at')) as [{ at: Date }];
  await disconnectAll();
  await eventually(
    async () => {
      const [row] = await query<{ n: number }>(
        url,
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = ANY($1::text[]) AND backend_start <= $2`,
        [APP_POOLS, at],
      );
      return row!.n === 0;
    },
    10_000,
    "the app pools' backends to exit (and so report their counts)",
    20,
  );
  return query<T>(url, sql);
}
