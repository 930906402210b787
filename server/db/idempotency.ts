// Idempotency-Key: a mutation's first outcome, kept with the write and replayed to a retry.
// docs/flows/reads-and-writes.md#reads-writes-and-failures
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { write, writeStatement, type SendOne, type Tx } from './access';
import { isConnectionError, primaryUnavailable } from './connection-errors';
import { uniqueViolation } from './errors';
import { primary, type Db } from './client';
import { command } from './sql';
import type { CommitHint } from './write-positions';
import { ensureHealthMonitor, primaryUpNow, reportDown } from './health';
import type { DataRequest } from './request-state';

export const IDEMPOTENCY_TTL_HOURS = 24;

export interface IdempotentResult<T> {
  status: number;
  body: T;
}

export interface IdempotencyOptions<T> {
  /** What is kept for replays instead of the body (e.g. without a secret shown only once). */
  redactForReplay?: (body: T) => T;
}

const cutoff = () => new Date(Date.now() - IDEMPOTENCY_TTL_HOURS * 3600_000);

/** The record a single-statement write inserts with its change (see `idempotentStatement`). */
export interface IdempotencyRecord {
  orgId: string;
  key: string;
  requestHash: string;
}

/** The unique violation a concurrent request with the same key causes. */
const RECORD_CONSTRAINT = 'idempotency_keys_pkey';

interface Keyed {
  orgId: string;
  key: string;
  hash: string;
}

function keyed(req: DataRequest, request: unknown): Keyed | undefined {
  const key = req.consistency.idempotencyKey;
  if (!key || !req.org) return undefined;
  return { orgId: req.org.id, key, hash: createHash('sha256').update(JSON.stringify(request)).digest('hex') };
}

/** The first outcome under this key, if any and fresh; 409 when the key came with another request. */
async function replayed<T>(req: DataRequest, k: Keyed): Promise<{ body: T } | { expired: boolean }> {
  const prior = await primary().idempotencyKey.findUnique({ where: { orgId_key: { orgId: k.orgId, key: k.key } } });
  if (!prior) return { expired: false };
  if (prior.createdAt < cutoff()) return { expired: true };
  if (prior.requestHash !== k.hash) {
    throw new AppError('conflict', 'this Idempotency-Key was used with a different request');
  }
  req.response.status = prior.responseStatus;
  req.consistency.replayed = true;
  req.consistency.servedBy = 'primary';
  return { body: prior.responseBody as T };
}

/** Looks for an earlier outcome, on the primary (a replica may not have it yet). */
async function lookUp<T>(req: DataRequest, k: Keyed): Promise<{ body: T } | { expired: boolean }> {
  await ensureHealthMonitor();
  if (!(await primaryUpNow())) throw primaryUnavailable();
  try {
    return await replayed<T>(req, k);
  } catch (e) {
    if (isConnectionError(e)) {
      reportDown('primary', (e as Error).message);
      throw primaryUnavailable(e);
    }
    throw e;
  }
}

/**
 * A write whose first outcome is kept under the caller's Idempotency-Key: a retry gets that
 * outcome back (`Idempotent-Replayed: true`), a reuse with another body gets 409 conflict.
 */
export async function idempotentWrite<T>(
  req: DataRequest,
  request: unknown,
  fn: (tx: Tx) => Promise<IdempotentResult<T>>,
  opts: IdempotencyOptions<T> = {},
): Promise<T> {
  const k = keyed(req, request);
  if (!k) {
    const r = await write(req, fn);
    req.response.status = r.status;
    return r.body;
  }
  const prior = await lookUp<T>(req, k);
  if ('body' in prior) return prior.body;
  try {
    const r = await write(req, async (tx) => {
      const result = await fn(tx);
      // An expired record under the same key no longer counts: make room for this outcome.
      if (prior.expired) await deleteExpired(tx, k);
      const stored = opts.redactForReplay ? opts.redactForReplay(result.body) : result.body;
      await tx.idempotencyKey.create({
        data: {
          orgId: k.orgId,
          key: k.key,
          requestHash: k.hash,
          responseStatus: result.status,
          responseBody: stored as object,
        },
      });
      return result;
    });
    req.response.status = r.status;
    return r.body;
  } catch (e) {
    // A concurrent request with the same key won the race: answer with its outcome.
    if ((e as { code?: string }).code === 'P2002' || uniqueViolation(e) === RECORD_CONSTRAINT) {
      const again = await replayed<T>(req, k);
      if ('body' in again) return again.body;
    }
    throw e;
  }
}

/**
 * `idempotentWrite` for a change made by ONE statement (`writeStatement`): one round trip with
 * the key's look-up and the bookmark. With an Idempotency-Key, `fn` gets `record` and its
 * statement must: read the key's record if it is fresh (`created_at >= now() -
 * IDEMPOTENCY_TTL_HOURS`) and then change nothing but answer `{ prior }`; otherwise make its
 * change and insert the record (a plain INSERT: a concurrent request with the key, or an expired
 * record, makes it fail on the primary key, and then nothing of the statement is kept). Without a
 * key, `record` is undefined.
 */
export async function idempotentStatement<T>(
  req: DataRequest,
  request: unknown,
  fn: (
    send: SendOne,
    record: IdempotencyRecord | undefined,
  ) => Promise<IdempotentResult<T> | { prior: PriorRecord<T> }>,
  opts: { hint?: CommitHint } = {},
): Promise<T> {
  const k = keyed(req, request);
  const attempt = async () => {
    const r = await writeStatement(
      req,
      (send) => fn(send, k ? { orgId: k.orgId, key: k.key, requestHash: k.hash } : undefined),
      opts,
    );
    if ('prior' in r) {
      if (r.prior.requestHash !== k?.hash) return { reused: true as const };
      req.response.status = r.prior.status;
      req.consistency.replayed = true;
      return { body: r.prior.body };
    }
    req.response.status = r.status;
    return { body: r.body };
  };
  const answer = (a: { body: T } | { reused: true }) => {
    if ('reused' in a) throw new AppError('conflict', 'this Idempotency-Key was used with a different request');
    return a.body;
  };
  let first: Awaited<ReturnType<typeof attempt>>;
  try {
    first = await attempt();
  } catch (e) {
    // The primary is away (the statement's own failure, already a 503): looking for a record
    // there would only fail again, as a 500.
    if (!k || isConnectionError(e) || (e instanceof AppError && e.code === 'primary_unavailable')) throw e;
    // A concurrent request with the same key may have won: its record, or the change it made
    // (a name now taken, say), is what this one ran into. Then its outcome is the answer.
    const prior = await replayed<T>(req, k);
    if ('body' in prior) return prior.body;
    if (prior.expired && uniqueViolation(e) === RECORD_CONSTRAINT) {
      // Only an expired record was in the way: it no longer counts.
      await writeStatement(req, (send) => send(deleteExpiredRecord, k.orgId, k.key, IDEMPOTENCY_TTL_HOURS));
      return answer(await attempt());
    }
    throw e;
  }
  return answer(first);
}

const deleteExpiredRecord = command<[orgId: string, key: string, ttlHours: number]>(
  'idempotency.delete_expired_record',
  `DELETE FROM idempotency_keys WHERE org_id = $1::text AND key = $2::text
    AND created_at < now() - make_interval(hours => $3::int)`,
);

/** A fresh record found under the key by a single-statement write (see `idempotentStatement`). */
export interface PriorRecord<T> {
  requestHash: string;
  status: number;
  body: T;
}

async function deleteExpired(db: Db | Tx, k: Keyed): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { orgId: k.orgId, key: k.key, createdAt: { lt: cutoff() } } });
}

/** Deletes records past their 24 hours; returns how many. Run periodically by the workers. */
export async function purgeExpiredIdempotencyKeys(db: Db = primary()): Promise<number> {
  const r = await db.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff() } } });
  return r.count;
}
