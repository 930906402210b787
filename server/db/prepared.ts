// The hottest statements (server/db/sql.ts), run as named prepared statements over the
// node-postgres pool behind a Prisma client: each connection parses and plans one once, not on
// every call, and Prisma's query interpreter is skipped. `db` is what the caller was handed (a
// request's read or write database, the background handle).
import { poolOf, type Db } from './client';
import type { RawRow, Statement } from './sql';

/** The name a statement is prepared under on each connection. */
const preparedName = (s: Statement<unknown, readonly unknown[]>) => `meridian_${s.name.replace(/\W/g, '_')}`;

/** Runs `s` as a named prepared statement on `db`'s pool and maps every row. */
export async function runPrepared<Row, Params extends readonly unknown[]>(
  db: Db,
  s: Statement<Row, Params>,
  ...params: Params
): Promise<Row[]> {
  const { rows } = await poolOf(db).query<RawRow>({
    name: preparedName(s as Statement<unknown, readonly unknown[]>),
    text: s.text,
    values: [...params],
  });
  return rows.map(s.map);
}
