// Superuser queries on one HA node (the leader, as the callers use it): roles.ts's access, which
// nodes stream from it, and which have replayed up to a point.
import pg from 'pg';
import { ADMIN_ROLE } from '../embedded-pg/roles';

export type AdminQuery = <T>(fn: (c: pg.Client) => Promise<T>, database?: string) => Promise<T>;

export function adminOn(port: number, password: string): AdminQuery {
  return async (fn, database = 'postgres') => {
    const c = new pg.Client({ host: '127.0.0.1', port, user: ADMIN_ROLE, password, database });
    c.on('error', () => {}); // a node stopping under it: the next call fails instead
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };
}

/** The application names that stream from the node now (pg_stat_replication, state streaming). */
export async function streamingNodes(admin: AdminQuery): Promise<string[]> {
  return admin(async (c) => {
    const { rows } = await c.query<{ application_name: string }>(
      "SELECT application_name FROM pg_stat_replication WHERE state = 'streaming'",
    );
    return rows.map((r) => r.application_name);
  });
}

/** The node's WAL position now. */
export async function walPosition(admin: AdminQuery): Promise<string> {
  return admin(async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn);
}

/** The application names that have replayed the node's WAL up to `lsn`. */
export async function caughtUpNodes(admin: AdminQuery, lsn: string): Promise<string[]> {
  return admin(async (c) => {
    const { rows } = await c.query<{ application_name: string }>(
      `SELECT application_name FROM pg_stat_replication WHERE state = 'streaming' AND replay_lsn >= $1::pg_lsn`,
      [lsn],
    );
    return rows.map((r) => r.application_name);
  });
}
