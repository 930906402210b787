// Where a request's queries run: `read` and `write`, the one way request code reaches the
// database (docs/flows/reads-and-writes.md).
import { AppError } from '../errors';
import { metrics } from '../telemetry/metrics';
import { laterLsn } from './bookmark';
import { poolOf, primary, type Db } from './client';
import { isConnectionError, primaryUnavailable } from './connection-errors';
import { ensureHealthMonitor, primaryHealth, reportDown } from './health';
import { writeGate } from './read-gate';
import { planRead, readRegion, recordServedBy, type ReadPlan } from './read-plan';
import { noteDecision, type DataRequest } from './request-state';
import { acknowledged } from './write-acks';
import { ensureWritePositions } from './write-notices';
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
    const lsn = await commitPosition(poolOf(primary()), principal, hint);
    if (principal && lsn !== undefined) {
      noteOwnWrite(principal, lsn);
      // Answer only once every live gateway holds this position (write-positions.ts): what
      // closes the race between this answer reaching the client and the notice reaching the
      // gateway the client asks next.
      const t = performance.now();
      const acked = await acknowledged(lsn);
      metrics.writeAckWaitSeconds.observe({ acknowledged: String(acked) }, (performance.now() - t) / 1000);
    }
    return lsn;
  } catch {
    return undefined;
  }
}

/** Runs `fn` in one transaction on the primary; on success the caller gets a newer bookmark. */
export async function write<T>(req: DataRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return committed(req, () => primary().$transaction(fn, { maxWait: 2_000, timeout: 15_000 }));
}

/**
 * `write` for a change made by ONE statement on the primary (atomic by itself, so no
 * interactive transaction: no BEGIN and COMMIT round trips). `fn` must send exactly one
 * statement; on success the caller gets a newer bookmark.
 */
export async function writeStatement<T>(req: DataRequest, fn: (db: Db) => Promise<T>): Promise<T> {
  return committed(req, () => fn(primary()));
}

async function committed<T>(req: DataRequest, run: () => Promise<T>): Promise<T> {
  await ensureHealthMonitor();
  if (req.principal) void ensureWritePositions();
  const gate = writeGate(primaryHealth().up);
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
  let out: T;
  try {
    out = await run();
  } catch (e) {
    if (isConnectionError(e)) {
      reportDown('primary', (e as Error).message);
      decide(false);
      throw primaryUnavailable(e);
    }
    decide(true);
    throw e;
  }
  decide(true);
  // Committed. From here on nothing may report failure.
  const hint = req.consistency.commitHint;
  req.consistency.commitHint = undefined;
  const lsn = await primaryInsertLsn(req.principal, hint);
  req.consistency.newBookmark = laterLsn(req.consistency.newBookmark, lsn);
  req.consistency.bookmark = laterLsn(req.consistency.bookmark, lsn); // later reads in this request see it too
  req.consistency.servedBy ??= 'primary';
  return out;
}
