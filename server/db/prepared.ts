// The hottest statements, run as named prepared statements on the node-postgres pool behind a
// Prisma client. docs/decisions/0002-raw-sql-on-the-hot-path.md
import { poolOf, type Db } from './client';
import { preparedName, type RawRow, type Statement } from './sql';

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
