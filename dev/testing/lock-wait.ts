// A change held open in a transaction on the primary while a request waits for its locks: what a
// race with a concurrent writer looks like, made deterministic (commit once the request waits).
import pg from 'pg';
import { expect } from 'vitest';

/**
 * Runs `change` in a transaction on `url`, starts `request`, waits until the request's statement
 * is blocked by the transaction (pg_blocking_pids), commits, and returns the request's answer.
 */
export async function committedWhileWaiting<T>(
  url: string,
  change: (c: pg.Client) => Promise<unknown>,
  request: () => Promise<T>,
): Promise<T> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    const pid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    await holder.query('BEGIN');
    await change(holder);
    const answer = request();
    answer.catch(() => {}); // awaited below; a failure while waiting is reported there
    const waiting = async () =>
      (
        await holder.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))',
          [pid],
        )
      ).rows[0]!.n;
    await expect.poll(waiting, { timeout: 10_000 }).toBe(1);
    await holder.query('COMMIT');
    return await answer;
  } finally {
    await holder.end();
  }
}
