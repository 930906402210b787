// The database for work that belongs to no request (workers, samplers, alerts, listeners):
// always the primary. Requests use access.ts. docs/architecture.md
import type pg from 'pg';
import { poolOf, primary, replica, type Db } from './client';
import { newClient } from './pg-connections';
import { primaryUrl } from './topology';

/** A node-postgres pool on the primary (the same connections `backgroundDb()` uses). */
export type BackgroundPool = pg.Pool;
/** One connection checked out of a `BackgroundPool` (the caller releases it). */
export type BackgroundPoolClient = pg.PoolClient;
/** One connection checked out of a `BackgroundPool`, or a dedicated `backgroundSession()`. */
export type BackgroundClient = pg.PoolClient | pg.Client;
/** A dedicated connection to the primary, outside every pool (`backgroundSession`). */
export type BackgroundSession = pg.Client;

/** The primary, for work outside any request: no read gate, no bookmark, no degraded marking. */
export function backgroundDb(): Db {
  return primary();
}

/**
 * The primary's node-postgres pool, for what Prisma cannot do or does too slowly: cursors,
 * multi-row bulk statements with a client-side timeout, a burst of statements on one
 * connection (`backgroundTransaction`).
 */
export function backgroundPool(): BackgroundPool {
  return poolOf(primary());
}

/**
 * The node-postgres pool of `region`'s replica, for background work that must read there (a
 * workspace move's verify, at the target); undefined when the region has no replica configured.
 */
export function backgroundReplicaPool(region: string): BackgroundPool | undefined {
  const db = replica(region);
  return db && poolOf(db);
}

/** `backgroundTransaction` on a connection the caller holds (a `backgroundSession`). */
export async function inTransaction<C extends BackgroundClient, T>(
  client: C,
  fn: (client: C) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  await client.query(begin);
  try {
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

export interface SessionOptions {
  /** Shown in pg_stat_activity beside the role: say which worker this is. */
  applicationName: string;
  connectTimeoutMs?: number;
  /** Server-side limit per statement (statement_timeout). */
  statementTimeoutMs?: number;
  /** Client-side limit per query (node-postgres's query_timeout). */
  queryTimeoutMs?: number;
}

/**
 * A new, unconnected connection to the primary outside every pool, for session state that must
 * outlive one statement (a session advisory lock held while this process does a job alone). The
 * caller connects it, listens for its `error` event and ends it.
 */
export function backgroundSession(opts: SessionOptions): BackgroundSession {
  return newClient({
    connectionString: primaryUrl(),
    application_name: opts.applicationName,
    connectionTimeoutMillis: opts.connectTimeoutMs,
    statement_timeout: opts.statementTimeoutMs,
    query_timeout: opts.queryTimeoutMs,
  });
}
