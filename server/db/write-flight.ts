// A single-statement write and the bookmark statement after it, sent together: one round trip to
// the primary (docs/flows/reads-and-writes.md#one-round-trip-per-write).
import type pg from 'pg';
import { processSingleton } from '../process-singletons';
import { logger } from '../telemetry/logger';
import { parseLsn } from './lsn';
import { newPool } from './pg-connections';
import { probePool } from './probe-pools';
import { countPoolConnects, noteRoundTrip } from './round-trips';
import { preparedName, type RawRow, type Statement } from './sql';
import { primaryUrl } from './topology';
import { bookmarkQuery, type CommitHint } from './write-positions';

/** Connections kept: each carries one flight at a time (no head-of-line wait behind another request). */
const FLIGHT_CONNECTIONS = 10;
/** Idle connections stay open this long: a write after a pause must not pay a WAN connect. */
const IDLE_MS = 5 * 60_000;

const pools = () => processSingleton('write-flights', () => new Map<string, pg.Pool>());

/**
 * The primary's pipelining pool: node-postgres's `pipeline` mode writes a query without waiting
 * for the one before it, each with its own Sync, so each is its own implicit transaction and the
 * server runs them in order: the bookmark statement runs after the write has committed.
 */
function flightPool(): pg.Pool {
  const url = primaryUrl();
  let pool = pools().get(url);
  if (!pool) {
    pool = newPool(
      {
        connectionString: url,
        max: FLIGHT_CONNECTIONS,
        idleTimeoutMillis: IDLE_MS,
        connectionTimeoutMillis: 5_000,
        application_name: 'meridian-write-flight',
        pipeline: true,
      } as pg.PoolConfig & { connectionString: string },
      (e) => logger.warn({ err: e.message }, 'idle write-flight connection lost'),
    );
    countPoolConnects(pool);
    pools().set(url, pool);
  }
  return pool;
}

export interface Flown<Row> {
  rows: Row[];
  /** The primary's position after the write's commit; undefined if the bookmark statement failed. */
  lsn: bigint | undefined;
}

/** Recent flights' durations (ms): their least is the round trip this gateway has to the primary. */
const recent = () => processSingleton('write-flights-recent', () => ({ ms: [] as number[] }));
const RECENT_FLIGHTS = 64;

/** The primary's round trip as recent flights saw it (ms; 100 before any has flown). */
export function flightBaselineMs(): number {
  const { ms } = recent();
  return ms.length ? Math.max(1, Math.min(...ms)) : 100;
}

function noteFlight(ms: number): void {
  const r = recent().ms;
  r.push(ms);
  if (r.length > RECENT_FLIGHTS) r.shift();
}

/**
 * How long a write waits before asking whether the primary is there at all, and how long that
 * question may take: a few round trips plus slack. A partition (the link silent, not refused)
 * then answers 503 in well under a second instead of waiting for TCP to give up; a primary that
 * is only slow (it answers the ping) keeps its writes waiting.
 */
export const livenessTimings = (baselineMs = flightBaselineMs()) => ({
  waitMs: 2 * baselineMs + 100,
  pingMs: 3 * baselineMs + 300,
});

/** The primary did not answer a write, nor a ping after it: the write's outcome is unknown. */
export class PrimarySilent extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(waitedMs: number) {
    super(`the primary answered neither the write nor a ping within ${Math.round(waitedMs)} ms`);
  }
}

/** Whether the primary answers a trivial query within `ms` (on the health monitor's pool). */
async function answers(ms: number): Promise<boolean> {
  const ping = probePool(primaryUrl())
    .query({ text: 'SELECT 1', query_timeout: ms } as pg.QueryConfig)
    .then(
      () => true,
      () => false,
    );
  return Promise.race([ping, sleep(ms).then(() => false)]); // a connection still to open counts too
}

/**
 * Sends `s` and the bookmark statement (which also tells the other gateways `principal`'s new
 * position and sends `hint`) in one write to the socket; resolves with `s`'s rows and the
 * position once both have answered. A failure of `s` is thrown (the bookmark is then moot).
 * Silence past the liveness wait, with the primary not answering a ping either, is a
 * `PrimarySilent` (a connection error: 503): the connection is dropped, the write's fate unknown.
 */
export async function flyWithBookmark<Row, Params extends readonly unknown[]>(
  s: Statement<Row, Params>,
  params: Params,
  principal: string | undefined,
  hint: CommitHint | undefined,
): Promise<Flown<Row>> {
  const started = performance.now();
  let abandoned = false;
  let held: pg.PoolClient | undefined;
  const flight = (async (): Promise<Flown<Row>> => {
    const client = await flightPool().connect();
    if (abandoned) {
      client.release(true);
      throw new PrimarySilent(performance.now() - started);
    }
    held = client;
    let broken: Error | undefined;
    try {
      noteRoundTrip('primary');
      const sent = performance.now();
      const write = client.query<RawRow>({
        name: preparedName(s as Statement<unknown, readonly unknown[]>),
        text: s.text,
        values: [...params],
      });
      const bookmark = client.query<{ lsn: string }>(bookmarkQuery(principal, hint));
      const [w, b] = await Promise.allSettled([write, bookmark]);
      if (w.status === 'rejected') {
        if (b.status === 'rejected') broken = b.reason as Error; // the connection itself failed
        throw w.reason;
      }
      if (b.status === 'fulfilled') noteFlight(performance.now() - sent);
      return {
        rows: w.value.rows.map(s.map),
        lsn: b.status === 'fulfilled' ? parseLsn(b.value.rows[0]!.lsn) : undefined,
      };
    } finally {
      if (!abandoned) client.release(broken);
    }
  })();
  const { waitMs, pingMs } = livenessTimings();
  for (;;) {
    const settled = await Promise.race([
      flight.then(
        () => true,
        () => true,
      ),
      sleep(waitMs).then(() => false),
    ]);
    if (settled) return flight;
    if (await answers(pingMs)) continue; // only slow: keep waiting, and ask again
    if (await raceSettled(flight)) return flight;
    abandoned = true;
    held?.release(true); // destroys the connection: whatever it carried is the primary's to finish or not
    flight.catch(() => {});
    throw new PrimarySilent(performance.now() - started);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
/** Whether `p` has settled by now (one turn of the event loop). */
const raceSettled = (p: Promise<unknown>) =>
  Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => setImmediate(() => r(false))),
  ]);

/** Closes the pools (tests that restart the primary). */
export async function endWriteFlights(): Promise<void> {
  const all = [...pools().values()];
  pools().clear();
  await Promise.all(all.map((p) => p.end().catch(() => {})));
}
