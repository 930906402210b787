// Hand-written SQL, declared once (`statement`/`command`) and run on whatever the caller holds.
// Registered, so one test prepares them all: docs/architecture.md#layers
import type pg from 'pg';
import type { Db } from './client';
import type { Tx } from './access';

/** A column value as a driver hands it over (Prisma: int8 as bigint; node-postgres: as text). */
export type RawRow = Record<string, unknown>;

export interface Statement<Row, Params extends readonly unknown[] = unknown[]> {
  /** Unique in the process: names the statement in PREPARE, traces and errors. */
  readonly name: string;
  /** The SQL, parameters as `$1::type` (a cast, so PREPARE knows each parameter's type). */
  readonly text: string;
  /** One result row → the domain's value. */
  readonly map: (row: RawRow) => Row;
  /** Client-side limit when run over node-postgres (its `query_timeout`). */
  readonly timeoutMs?: number;
  /** Phantom: the parameters' types, checked by `run` and friends. */
  readonly params?: Params;
}

/** Anything a statement can run on: a Prisma client or transaction, or node-postgres. */
export type SqlTarget = Db | Tx | pg.Pool | pg.PoolClient | pg.Client;

const registry = new Map<string, Statement<unknown, readonly unknown[]>>();

/**
 * Declares (and registers) a statement. A second statement under a taken name throws; the same
 * definition evaluated again (another Next bundle, a hot reload) is the same statement.
 */
export function statement<Row, Params extends readonly unknown[] = unknown[]>(
  name: string,
  text: string,
  map: (row: RawRow) => Row,
  opts: { timeoutMs?: number } = {},
): Statement<Row, Params> {
  const taken = registry.get(name);
  if (taken && taken.text !== text) throw new Error(`SQL statement ${name} is declared twice`);
  const s: Statement<Row, Params> = { name, text, map, ...opts };
  registry.set(name, s as Statement<unknown, readonly unknown[]>);
  return s;
}

/** The name a statement is prepared under on each connection. */
export const preparedName = (s: Statement<unknown, readonly unknown[]>) => `meridian_${s.name.replace(/\W/g, '_')}`;

/** A statement that returns no rows (or whose rows nobody reads): run it with `execute`. */
export function command<Params extends readonly unknown[] = unknown[]>(
  name: string,
  text: string,
  opts: { timeoutMs?: number } = {},
): Statement<never, Params> {
  return statement<never, Params>(name, text, noRows, opts);
}

function noRows(): never {
  throw new Error('a command returns no rows: run it with execute()');
}

/** Every statement declared so far in this process (the statements test PREPAREs them). */
export function registeredStatements(): Statement<unknown, readonly unknown[]>[] {
  return [...registry.values()];
}

function isPrisma(on: SqlTarget): on is Db | Tx {
  return '$queryRawUnsafe' in on;
}

function pgQuery(s: Statement<unknown, readonly unknown[]>, params: readonly unknown[]): pg.QueryConfig {
  // node-postgres honours query_timeout per query; its types omit it.
  return {
    text: s.text,
    values: [...params],
    ...(s.timeoutMs ? { query_timeout: s.timeoutMs } : {}),
  } as pg.QueryConfig;
}

/** Runs `s` and maps every row it returns. */
export async function run<Row, Params extends readonly unknown[]>(
  on: SqlTarget,
  s: Statement<Row, Params>,
  ...params: Params
): Promise<Row[]> {
  const rows = isPrisma(on)
    ? await on.$queryRawUnsafe<RawRow[]>(s.text, ...params)
    : (await on.query<RawRow>(pgQuery(s, params))).rows;
  return rows.map(s.map);
}

/** Runs `s`: its first row, mapped, or undefined when it returned none. */
export async function runOne<Row, Params extends readonly unknown[]>(
  on: SqlTarget,
  s: Statement<Row, Params>,
  ...params: Params
): Promise<Row | undefined> {
  const [row] = await run(on, s, ...params);
  return row;
}

/** Runs `s` for its effect: the number of rows it inserted, updated or deleted. */
export async function execute<Params extends readonly unknown[]>(
  on: SqlTarget,
  s: Statement<unknown, Params>,
  ...params: Params
): Promise<number> {
  if (isPrisma(on)) return on.$executeRawUnsafe(s.text, ...params);
  return (await on.query(pgQuery(s, params))).rowCount ?? 0;
}

/** A timestamptz expression as JavaScript's toISOString() writes it: how the API shows a time. */
export const isoTimeSql = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
