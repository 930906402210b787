// Every hand-written statement (`statement()` in a `server/**/*.sql.ts` file) is PREPAREd
// against the migrated schema: a renamed column or a wrong parameter type fails here, not on the
// first request that runs it. New `*.sql.ts` files are found on disk, not listed.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../dev/testing/db';
import { connect, type Db } from '../../server/db/client';
import { advisoryUnlock, tryAdvisoryLock } from '../../server/db/locks.sql';
import { execute, registeredStatements, run, runOne, statement, type Statement } from '../../server/db/sql';

const root = path.resolve(import.meta.dirname, '../..');
const files = fs
  .readdirSync(path.join(root, 'server'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.sql.ts'))
  .map((f) => path.join(root, 'server', f))
  .sort();

let client: pg.Client;
let prisma: Db;

beforeAll(async () => {
  for (const f of files) await import(f);
  const db = await freshDatabase('statements');
  client = new pg.Client({ connectionString: db.primary }); // the app's role, as the app connects
  await client.connect();
  prisma = connect(db.primary, 1, 'primary');
});

afterAll(async () => {
  await client?.end();
  await prisma?.$disconnect();
});

/** PREPAREs `s` under its own name (parse, analyse, plan: every table, column and type checked). */
async function prepare(s: Statement<unknown, readonly unknown[]>): Promise<void> {
  const name = pg.escapeIdentifier(`check_${s.name}`);
  await client.query(`PREPARE ${name} AS ${s.text}`);
  await client.query(`DEALLOCATE ${name}`);
}

describe('hand-written SQL', () => {
  it('finds the statement files', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(registeredStatements().length).toBeGreaterThanOrEqual(files.length);
  });

  it('prepares every registered statement against the migrated schema', async () => {
    const failed: string[] = [];
    for (const s of registeredStatements()) {
      try {
        await prepare(s);
      } catch (e) {
        failed.push(`${s.name}: ${(e as Error).message}`);
      }
    }
    expect(failed).toEqual([]);
  });

  it('fails a statement naming a column the schema lacks', async () => {
    const broken = statement(
      'test.missing_column',
      'SELECT no_such_column FROM clusters WHERE id = $1::text',
      (r) => r,
    );
    await expect(prepare(broken)).rejects.toThrow(/column "no_such_column" does not exist/);
  });

  it('runs a statement on node-postgres and on Prisma alike, mapping its rows', async () => {
    expect(await runOne(client, tryAdvisoryLock, 4242)).toBe(true);
    expect(await runOne(client, advisoryUnlock, 4242)).toBe(true);
    expect(await run(prisma, advisoryUnlock, 4242)).toEqual([false]); // Prisma's session never held it
    const count = statement<number, [n: number]>('test.count_rows', 'SELECT generate_series(1, $1::int) AS n', (r) =>
      Number(r.n),
    );
    expect(await run(client, count, 3)).toEqual([1, 2, 3]);
    expect(await run(prisma, count, 2)).toEqual([1, 2]);
    expect(await execute(client, count, 4)).toBe(4);
    expect(await execute(prisma, count, 5)).toBe(5);
  });
});
