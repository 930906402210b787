// Helpers for integration tests: fresh databases on the shared test topology, and waiting
// for a replica to replay up to the primary's current WAL position.
import type pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../server/db/migrate';
import { newClient } from '../../server/db/pg-connections';
import { grantAppRole } from '../../server/db/privileges';
import { installQueues } from '../../server/workflows/queue';
import { APP_ROLE, OWNER_ROLE } from '../embedded-pg/roles';

export function topology() {
  return inject('topology');
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function query<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const c = newClient({ connectionString: url }); // a multi-host URL too (the HA topology)
  c.on('error', () => {});
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

export interface FreshDatabase {
  /** The app's role (data only, no DDL), as the app connects. */
  primary: string;
  replicas: Record<string, string>;
  /** The owner's role: migrations, DDL. */
  owner: string;
}

/** A new, migrated database on the primary (replicated to every region like any other), with
 * the workflow queues of the test regions, laid out as `npm start` does: the owner role owns
 * it and migrates it, and the app's rights on its tables come from the owner's default
 * privileges, set before any table exists. */
export async function freshDatabase(name: string): Promise<FreshDatabase> {
  const t = topology();
  const db = `${name}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.toLowerCase();
  await query(t.adminPrimary, `CREATE DATABASE ${db} OWNER ${OWNER_ROLE}`);
  const owner = withDatabase(t.ownerPrimary, db);
  await grantAppRole(owner, APP_ROLE);
  await migrate(owner);
  await installQueues(owner, ['sfo1', 'lax1', 'ams1']);
  const replicas = Object.fromEntries(Object.entries(t.replicas).map(([r, u]) => [r, withDatabase(u, db)]));
  return { primary: withDatabase(t.primary, db), replicas, owner };
}

/** Waits until `replicaUrl` has replayed the primary's WAL as of now. The insert position, not
 * pg_current_wal_lsn(): with asynchronous commit a commit record may sit in WAL buffers past the
 * write position, and a replica caught up to that position would still miss it. */
export async function waitForReplay(primaryUrl: string, replicaUrl: string, timeoutMs = 10_000): Promise<void> {
  const [{ lsn }] = (await query<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_insert_lsn()::text AS lsn')) as [
    { lsn: string },
  ];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [row] = await query<{ caught_up: boolean }>(
      replicaUrl,
      'SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up',
      [lsn],
    );
    if (row?.caught_up) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`replica did not replay ${lsn} within ${timeoutMs} ms`);
}
