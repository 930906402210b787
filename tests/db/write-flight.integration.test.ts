// A write's flight (server/db/write-flight.ts) against a real primary: the statement and the
// bookmark go out together, the bookmark covers the commit, a failed statement leaves the
// connection fit for the next flight, and a primary that is only slow keeps its write waiting.
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, query } from '../../dev/testing/db';
import { parseLsn } from '../../server/db/lsn';
import { statement } from '../../server/db/sql';
import { flyWithBookmark, livenessTimings } from '../../server/db/write-flight';
import { resetEnvCache } from '../../server/env';

let url: string;

const insert = statement<{ id: string; at: string }, [id: string]>(
  'test.flight_insert',
  `INSERT INTO flight_rows (id) VALUES ($1::text) RETURNING id, pg_current_wal_insert_lsn()::text AS at`,
  (r) => ({ id: r.id as string, at: r.at as string }),
);
const slow = statement<{ ok: boolean }, [seconds: number]>(
  'test.flight_slow',
  `SELECT true AS ok FROM pg_sleep($1::float8)`,
  (r) => ({ ok: r.ok === true }),
);

beforeAll(async () => {
  const db = await freshDatabase('write_flight');
  url = db.primary;
  process.env.DATABASE_URL = url;
  resetEnvCache();
  // The owner's role makes the table (the app's role has no DDL); its default privileges grant the app's.
  await query(db.owner, 'CREATE TABLE flight_rows (id text PRIMARY KEY)');
});

describe('a write and its bookmark in one flight', () => {
  it('the bookmark comes after the commit: past the statement’s own WAL position', async () => {
    const flown = await flyWithBookmark(insert, [`r-${Date.now()}`], undefined, undefined);
    expect(flown.rows).toHaveLength(1);
    expect(flown.lsn).toBeDefined();
    // The insert's position was taken inside its transaction, before its commit record.
    expect(flown.lsn!).toBeGreaterThan(parseLsn(flown.rows[0]!.at)!);
    const [row] = await query<{ n: string }>(url, 'SELECT count(*)::text AS n FROM flight_rows WHERE id = $1', [
      flown.rows[0]!.id,
    ]);
    expect(row!.n).toBe('1');
  });

  it('a failed statement is thrown, and the connection serves the next flight', async () => {
    const id = `dup-${Date.now()}`;
    await flyWithBookmark(insert, [id], undefined, undefined);
    const failure = await flyWithBookmark(insert, [id], undefined, undefined).then(
      () => undefined,
      (e: unknown) => e as { code?: string },
    );
    expect(failure?.code).toBe('23505');
    for (let i = 0; i < 12; i++) {
      // More flights than the pool has connections: every one of them is fit again.
      expect((await flyWithBookmark(insert, [`${id}-${i}`], undefined, undefined)).rows).toHaveLength(1);
    }
  });

  it('a primary that is only slow (it answers the ping) keeps the write waiting past the liveness wait', async () => {
    const seconds = (livenessTimings().waitMs * 2) / 1000;
    const t = performance.now();
    const flown = await flyWithBookmark(slow, [seconds], undefined, undefined);
    expect(flown.rows).toEqual([{ ok: true }]);
    expect(performance.now() - t).toBeGreaterThanOrEqual(seconds * 1000);
  });
});
