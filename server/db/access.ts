// Where a request's queries run: `read` and `write`, the one way request code reaches the
// database (docs/flows/reads-and-writes.md).
import { AppError } from '../errors';
import { metrics } from '../telemetry/metrics';
import { laterLsn } from './bookmark';
import { poolOf, primary, type Db } from './client';
import { isConnectionError, primaryUnavailable } from './connection-errors';
import { ensureHealthMonitor, primaryUpNow, reportDown } from './health';
import { writeGate } from './read-gate';
import { planRead, readRegion, recordServedBy, type ReadPlan } from './read-plan';
import { noteDecision, type DataRequest } from './request-state';
import { acknowledged } from './write-acks';
import { ensureWritePositions } from './write-notices';
import type { Statement } from './sql';
import { flyWithBookmark, PrimarySilent } from './write-flight';
import { commitPosition, noteOwnWrite, type CommitHint } from './write-positions';

export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Runs a read on the right database for this request (docs/flows/reads-and-writes.md). */
export async function read<T>(req: DataRequest, fn: (db: Db) => Promise<T>, region = readRegion(req)): Promise<T> {
  return (await readFrom(req, fn, region)).value;
}

/** `read`, also saying which database answered (`primary` or `replica:<region>`). */
export async function readFrom<T>(
  req: DataRequest,
  fn: (db: Db) => Promise<T>,
  region = readRegion(req),
): Promise<{ value: T; servedBy: string }> {
  const plan = await planRead(req, region);
  const answered = (p: ReadPlan, value: T) => {
    recordServedBy(req, p);
    return { value, servedBy: p.servedBy };
  };
  try {
    return answered(plan, await fn(plan.db));
  } catch (e) {
    if (!isConnectionError(e)) throw e;
    // The database the gate chose is gone: say so to the health monitor and ask the gate once
    // more (it now sees that database down).
    reportDown(plan.servedBy === 'primary' ? 'primary' : plan.servedBy.slice('replica:'.length), (e as Error).message);
    let again: ReadPlan;
    try {
      again = await planRead(req, region);
    } catch (refused) {
      if (refused instanceof AppError) refused.cause ??= e;
      throw refused;
    }
    return answered(again, await fn(again.db));
  }
}

/**
 * The primary's WAL insert position: taken after a commit, it covers that commit. On the app's
 * own pool (never the health probes', which a burst of writes would starve). The same statement
 * tells every gateway the principal's new position (server/db/write-positions.ts) and sends the
 * write's commit hint, if it has one.
 */
async function primaryInsertLsn(
  principal: string | undefined,
  hint: CommitHint | undefined,
): Promise<bigint | undefined> {
  try {
    return await commitPosition(poolOf(primary()), principal, hint);
  } catch {
    return undefined;
  }
}

/**
 * Answers only once this region's other gateways hold `principal`'s new position (write-acks.ts,
 * told directly, not through the primary): the client's next request, wherever in the region it
 * lands, sees its write. Other regions hear it on the channel, unwaited for.
 */
async function announced(principal: string | undefined, lsn: bigint | undefined): Promise<void> {
  if (!principal || lsn === undefined) return;
  noteOwnWrite(principal, lsn);
  const t = performance.now();
  const acked = await acknowledged(principal, lsn);
  metrics.writeAckWaitSeconds.observe({ acknowledged: String(acked) }, (performance.now() - t) / 1000);
}

/**
 * Runs `fn` in one transaction on the primary; on success the caller gets a newer bookmark.
 * `hint`, a notification that carries no data (waking workers), goes with the bookmark.
 */
export async function write<T>(
  req: DataRequest,
  fn: (tx: Tx) => Promise<T>,
  opts: { hint?: CommitHint } = {},
): Promise<T> {
  return committed(req, opts.hint, async () => {
    const value = await primary().$transaction(fn, { maxWait: 2_000, timeout: 15_000 });
    return { value, bookmarked: false, lsn: undefined };
  });
}

/** Sends a write's one statement: its rows come back with the bookmark, in the same round trip. */
export type SendOne = <Row, Params extends readonly unknown[]>(
  s: Statement<Row, Params>,
  ...params: Params
) => Promise<Row[]>;

/**
 * `write` for a change made by ONE statement (atomic by itself: no BEGIN and COMMIT), which goes
 * out with the bookmark statement in one flight: the write costs one round trip to the primary.
 * `fn` calls `send` once; `hint` is sent with the bookmark whatever the statement decided (it
 * carries no data: docs/flows/reads-and-writes.md#one-round-trip-per-write).
 */
export async function writeStatement<T>(
  req: DataRequest,
  fn: (send: SendOne) => Promise<T>,
  opts: { hint?: CommitHint } = {},
): Promise<T> {
  return committed(req, opts.hint, async () => {
    let lsn: bigint | undefined;
    let sent = false;
    const send: SendOne = async (s, ...params) => {
      if (sent) throw new Error(`writeStatement sends one statement; ${s.name} was a second`);
      sent = true;
      const flown = await flyWithBookmark(s, params, req.principal, opts.hint);
      lsn = flown.lsn;
      return flown.rows;
    };
    const value = await fn(send);
    return { value, bookmarked: sent, lsn };
  });
}

interface Landed<T> {
  value: T;
  /** Whether the bookmark statement already ran (in the write's flight). */
  bookmarked: boolean;
  lsn: bigint | undefined;
}

/** Runs `run` on the primary (or refuses, when it is down) and takes the bookmark after it. */
async function committed<T>(req: DataRequest, hint: CommitHint | undefined, run: () => Promise<Landed<T>>): Promise<T> {
  await ensureHealthMonitor();
  if (req.principal) void ensureWritePositions();
  const gate = writeGate(await primaryUpNow());
  const decide = (ok: boolean) =>
    noteDecision(req, {
      kind: 'write',
      region: req.region?.region,
      target: ok ? 'primary' : null,
      reason: ok ? 'write_primary' : 'primary_down',
      candidates: [{ target: 'primary', chosen: ok, ...(ok ? {} : { dropped: 'primary_down' as const }) }],
    });
  if (!gate.ok) {
    decide(false);
    throw primaryUnavailable();
  }
  let landed: Landed<T>;
  try {
    landed = await run();
  } catch (e) {
    if (isConnectionError(e)) {
      reportDown('primary', (e as Error).message);
      decide(false);
      throw primaryUnavailable(e, e instanceof PrimarySilent);
    }
    decide(true);
    throw e;
  }
  decide(true);
  // Committed. From here on nothing may report failure.
  const lsn = landed.bookmarked ? landed.lsn : await primaryInsertLsn(req.principal, hint);
  await announced(req.principal, lsn);
  req.consistency.newBookmark = laterLsn(req.consistency.newBookmark, lsn);
  req.consistency.bookmark = laterLsn(req.consistency.bookmark, lsn); // later reads in this request see it too
  req.consistency.servedBy ??= 'primary';
  return landed.value;
}
