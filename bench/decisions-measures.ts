// What the decisions bench reads between its loads: records stored, their bytes on disk, and CPU
// ticks of the gateway and of the primary's processes (from /proc).
import fs from 'node:fs';
import pg from 'pg';

async function onPrimary<T>(databaseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

export async function storedRecords(databaseUrl: string): Promise<number> {
  return onPrimary(databaseUrl, async (c) =>
    Number(
      (await c.query<{ n: string }>('SELECT coalesce(sum(records), 0) AS n FROM request_decision_batches')).rows[0]!.n,
    ),
  );
}

/** Records, their payloads' bytes, and every byte of the partitions (heap, TOAST, indexes). */
export async function storage(databaseUrl: string): Promise<{ records: number; payload: number; disk: number }> {
  return onPrimary(databaseUrl, async (c) => {
    const { rows } = await c.query<{ records: string; payload: string; disk: string }>(
      `SELECT (SELECT coalesce(sum(records), 0) FROM request_decision_batches) AS records,
              (SELECT coalesce(sum(octet_length(payload)), 0) FROM request_decision_batches) AS payload,
              (SELECT coalesce(sum(pg_total_relation_size(i.inhrelid)), 0) FROM pg_inherits i
                WHERE i.inhparent = 'request_decision_batches'::regclass) AS disk`,
    );
    const r = rows[0]!;
    return { records: Number(r.records), payload: Number(r.payload), disk: Number(r.disk) };
  });
}

/** CPU ticks so far of every process of the primary's cluster that pg_stat_activity lists, by PID. */
export async function primaryCpuTicks(databaseUrl: string): Promise<Map<number, number>> {
  const pids = await onPrimary(databaseUrl, async (c) =>
    (await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid),
  );
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      // utime and stime: fields 14 and 15, after the parenthesised command name.
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, Number(f[11]) + Number(f[12]));
    } catch {
      /* exited */
    }
  }
  return out;
}

/** CPU ticks so far of one process (utime + stime). */
export function processTicks(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(f[11]) + Number(f[12]);
}

/** CPU seconds between two readings: a process in both by its difference, a new one by its total. */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of after) ticks += t - (before.get(pid) ?? 0);
  return ticks / 100; // USER_HZ on Linux
}
