// The background handles a move's copy uses: a cursor over a registered statement inside a
// read-only snapshot, the replica's pool, and a savepoint that undoes only what it wraps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, waitForReplay } from '../../dev/testing/db';
import { backgroundDb, backgroundPool, backgroundReplicaPool } from '../../server/db/background';
import { disconnectAll } from '../../server/db/client';
import { forEachRow, readOnlySnapshot } from '../../server/db/row-stream';
import { inSavepoint } from '../../server/db/savepoint';
import { runOne, statement } from '../../server/db/sql';
import { resetEnvCache } from '../../server/env';

const series = statement<number, [n: number]>('test.cursor_series', 'SELECT generate_series(1, $1::int) AS n', (r) =>
  Number(r.n),
);
const settings = statement<{ iso: string; readOnly: string; tz: string }, []>(
  'test.cursor_settings',
  "SELECT current_setting('transaction_isolation') AS iso, current_setting('transaction_read_only') AS ro, current_setting('TimeZone') AS tz",
  (r) => ({ iso: r.iso as string, readOnly: r.ro as string, tz: r.tz as string }),
);
const replayed = statement<string | null, []>(
  'test.cursor_replay',
  'SELECT pg_last_wal_replay_lsn()::text AS l',
  (r) => (r.l as string | null) ?? null,
);

let primaryUrl: string;
let replicaUrl: string;

beforeAll(async () => {
  const db = await freshDatabase('cursor');
  primaryUrl = db.primary;
  replicaUrl = db.replicas.sfo1!;
  process.env.DATABASE_URL = db.primary;
  process.env.DATABASE_REPLICA_URLS = `sfo1=${db.replicas.sfo1}`;
  resetEnvCache();
  await disconnectAll();
});

afterAll(async () => {
  await disconnectAll();
});

describe('server/db row stream, snapshot, replica and savepoint', () => {
  it('feeds every row of a statement, mapped and in order, a batch at a time', async () => {
    const seen: number[] = [];
    const out = await readOnlySnapshot(backgroundPool(), async (c) => {
      await forEachRow(c, series, [1201], (n) => void seen.push(n), { batch: 500 });
      return runOne(c, settings);
    });
    expect(seen).toEqual(Array.from({ length: 1201 }, (_, i) => i + 1));
    expect(out).toMatchObject({ iso: 'repeatable read', readOnly: 'on' });
  });

  it('reads in a repeatable-read, read-only snapshot in the time zone asked for', async () => {
    const out = await readOnlySnapshot(backgroundPool(), (c) => runOne(c, settings), { timeZone: 'UTC' });
    expect(out).toEqual({ iso: 'repeatable read', readOnly: 'on', tz: 'UTC' });
  });

  it('gives the replica of a configured region, and none for another', async () => {
    await waitForReplay(primaryUrl, replicaUrl);
    const pool = backgroundReplicaPool('sfo1');
    expect(pool).toBeDefined();
    expect(await runOne(pool!, replayed)).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect(await runOne(backgroundPool(), replayed)).toBeNull();
    expect(backgroundReplicaPool('nowhere')).toBeUndefined();
  });

  it('undoes what a savepoint wraps when it throws, and keeps the rest of the transaction', async () => {
    const id = `org_cursor_${Date.now()}`;
    await backgroundDb().$transaction(async (tx) => {
      await tx.organization.create({ data: { id, slug: id, name: 'before' } });
      await expect(
        inSavepoint(tx, 'test_sp', async () => {
          await tx.organization.update({ where: { id }, data: { name: 'inside' } });
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await inSavepoint(tx, 'test_sp', () => Promise.resolve(7))).toBe(7);
    });
    expect((await backgroundDb().organization.findUniqueOrThrow({ where: { id } })).name).toBe('before');
    await expect(inSavepoint({} as never, 'bad name;', () => Promise.resolve())).rejects.toThrow(/savepoint name/);
  });
});
