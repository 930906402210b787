// The failover drill's own database connections (dev/testing/failover-drill.ts): a superuser
// connection to the primary of the moment, and how long the replicas take to follow it.
import { newClient } from '../../server/db/pg-connections';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ms until every replica replayed the new primary's position as of now; undefined past `timeoutMs`. */
export async function replicasFollow(
  urls: { adminPrimary: string; adminReplicas: Record<string, string> },
  timeoutMs: number,
): Promise<number | undefined> {
  const started = performance.now();
  let admin: Awaited<ReturnType<typeof connectAdmin>> | undefined;
  try {
    admin = await connectAdmin(urls.adminPrimary);
    const { rows } = await admin.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    return (await followed(urls.adminReplicas, rows[0]!.lsn, timeoutMs)) ? performance.now() - started : undefined;
  } catch {
    return undefined;
  } finally {
    await admin?.end().catch(() => {});
  }
}

/** A superuser connection to the primary of the moment (a first try may meet the old one). */
export async function connectAdmin(url: string) {
  for (let attempt = 1; ; attempt++) {
    const c = newClient({ connectionString: url, connectionTimeoutMillis: 3_000 });
    c.on('error', () => {});
    try {
      await c.connect();
      return c;
    } catch (e) {
      if (attempt >= 10) throw e;
      await sleep(500);
    }
  }
}

/** Waits until every replica has replayed `lsn`; false after `timeoutMs`. */
async function followed(replicas: Record<string, string>, lsn: string, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (const url of Object.values(replicas)) {
    for (;;) {
      const c = newClient({ connectionString: url, connectionTimeoutMillis: 1_000 });
      c.on('error', () => {});
      const ok = await c
        .connect()
        .then(() => c.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [lsn]))
        .then((r) => r.rows[0]!.ok === true)
        .catch(() => false)
        .finally(() => c.end().catch(() => {}));
      if (ok) break;
      if (performance.now() > deadline) return false;
      await sleep(100);
    }
  }
  return true;
}
