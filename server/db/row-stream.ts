// Reading a registered statement's rows a batch at a time through a cursor (never the whole
// result at once), inside a read-only snapshot on one background connection.
import type { BackgroundPool, BackgroundPoolClient } from './background';
import type { RawRow, Statement } from './sql';

/**
 * Runs `fn` on one connection of `on` inside a `REPEATABLE READ READ ONLY` transaction: every
 * statement of `fn` sees the snapshot its first one took. `timeZone` (say 'UTC') is set for the
 * transaction, so timestamps render the same whichever server reads them.
 */
export async function readOnlySnapshot<T>(
  on: BackgroundPool,
  fn: (c: BackgroundPoolClient) => Promise<T>,
  { timeZone }: { timeZone?: string } = {},
): Promise<T> {
  const c = await on.connect();
  try {
    await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (timeZone) await c.query(`SET LOCAL TIME ZONE ${c.escapeLiteral(timeZone)}`);
    const result = await fn(c);
    await c.query('COMMIT');
    return result;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    c.release();
  }
}

/**
 * Feeds `fn` every row of `s`, mapped, in the statement's order, fetching `batch` rows at a time
 * from a cursor. `c` must be in a transaction (a `readOnlySnapshot`, a `backgroundTransaction`).
 */
export async function forEachRow<Row, Params extends readonly unknown[]>(
  c: BackgroundPoolClient,
  s: Statement<Row, Params>,
  params: Params,
  fn: (row: Row) => Promise<void> | void,
  { batch = 500, cursor = 'meridian_rows' }: { batch?: number; cursor?: string } = {},
): Promise<void> {
  const name = c.escapeIdentifier(cursor);
  await c.query({ text: `DECLARE ${name} NO SCROLL CURSOR FOR ${s.text}`, values: [...params] });
  try {
    for (;;) {
      const { rows } = await c.query<RawRow>(`FETCH ${Math.max(1, Math.floor(batch))} FROM ${name}`);
      for (const r of rows) await fn(s.map(r));
      if (rows.length < batch) break;
    }
  } finally {
    await c.query(`CLOSE ${name}`).catch(() => {}); // an aborted transaction closes it anyway
  }
}
