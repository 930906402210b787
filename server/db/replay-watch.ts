// Waiting for a replica to replay a causal bookmark: one poller per region, on a connection of its
// own, serves every waiting read. docs/flows/reads-and-writes.md
import type pg from 'pg';
import { processSingleton } from '../process-singletons';
import { parseLsn } from './lsn';
import { newClient } from './pg-connections';
import { replicaUrl } from './topology';

const POLL_INTERVAL_MS = 2;

interface Waiter {
  lsn: bigint;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

interface RegionWatch {
  waiters: Set<Waiter>;
  client?: pg.Client;
  connecting?: Promise<pg.Client>;
  polling: boolean;
  /** The newest replay position this process has seen (positions only move forward). */
  replayed?: bigint;
}

const watches = () => processSingleton('replay-watch', () => new Map<string, RegionWatch>());

function watchOf(region: string): RegionWatch {
  let w = watches().get(region);
  if (!w) {
    w = { waiters: new Set(), polling: false };
    watches().set(region, w);
  }
  return w;
}

async function connection(region: string, w: RegionWatch): Promise<pg.Client> {
  if (w.client) return w.client;
  w.connecting ??= (async () => {
    const c = newClient({
      connectionString: replicaUrl(region) ?? '',
      application_name: 'meridian-replay-watch',
      connectionTimeoutMillis: 1_000,
      statement_timeout: 1_000,
      query_timeout: 1_500,
    });
    c.on('error', () => {}); // a dropped connection is noticed by the next query
    await c.connect();
    w.client = c;
    return c;
  })().finally(() => {
    w.connecting = undefined;
  });
  return w.connecting;
}

function settle(w: RegionWatch, waiter: Waiter, reached: boolean): void {
  if (!w.waiters.delete(waiter)) return;
  clearTimeout(waiter.timer);
  waiter.resolve(reached);
}

async function poll(region: string, w: RegionWatch): Promise<void> {
  if (w.polling) return;
  w.polling = true;
  try {
    while (w.waiters.size > 0) {
      let lsn: bigint | undefined;
      try {
        const c = await connection(region, w);
        const r = await c.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
        lsn = r.rows[0]?.lsn ? parseLsn(r.rows[0].lsn) : undefined;
      } catch {
        // Unreachable: every waiter reads from the primary instead; reconnect next time.
        w.client?.end().catch(() => {});
        w.client = undefined;
        for (const waiter of [...w.waiters]) settle(w, waiter, false);
        return;
      }
      if (lsn !== undefined && (w.replayed === undefined || lsn > w.replayed)) w.replayed = lsn;
      for (const waiter of [...w.waiters])
        if (w.replayed !== undefined && w.replayed >= waiter.lsn) settle(w, waiter, true);
      if (w.waiters.size > 0) await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
    }
  } finally {
    w.polling = false;
  }
}

/** Resolves true once `region`'s replica has replayed `lsn`, false after `timeoutMs` or if unreachable. */
export function waitForReplay(region: string, lsn: bigint, timeoutMs: number): Promise<boolean> {
  const w = watchOf(region);
  if (w.replayed !== undefined && w.replayed >= lsn) return Promise.resolve(true);
  return new Promise((resolve) => {
    const waiter: Waiter = { lsn, resolve, timer: setTimeout(() => settle(w, waiter, false), timeoutMs) };
    w.waiters.add(waiter);
    void poll(region, w);
  });
}

/** For tests that restart servers: drop every watch connection. */
export async function resetReplayWatches(): Promise<void> {
  for (const w of watches().values()) {
    for (const waiter of [...w.waiters]) settle(w, waiter, false);
    await w.client?.end().catch(() => {});
  }
  watches().clear();
}
