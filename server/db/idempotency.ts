// Idempotency-Key: a mutation's first outcome is kept with the write (same transaction, so the
// two commit together); a retry gets that outcome back, a reuse with another body gets 409.
// Records live 24 hours (IDEMPOTENCY_TTL_HOURS): older ones are never replayed and a periodic
// purge deletes them. A response that carries a secret (a new API key) is stored redacted.
import { createHash } from 'node:crypto';
import { AppError } from '../errors';
import { isConnectionError, primaryUnavailable, write, type Tx } from './access';
import { primary, type Db } from './client';
import { ensureHealthMonitor, primaryHealth, reportDown } from './health';
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
  const key = req.consistency.idempotencyKey;
  if (!key || !req.org) {
    const r = await write(req, fn);
    req.response.status = r.status;
    return r.body;
  }
  const orgId = req.org.id;
  const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  const replay = async (): Promise<T | undefined> => {
    const prior = await primary().idempotencyKey.findUnique({ where: { orgId_key: { orgId, key } } });
    if (!prior || prior.createdAt < cutoff()) return undefined;
    if (prior.requestHash !== hash) {
      throw new AppError('conflict', 'this Idempotency-Key was used with a different request');
    }
    req.response.status = prior.responseStatus;
    req.consistency.replayed = true;
    req.consistency.servedBy = 'primary';
    return prior.responseBody as T;
  };
  await ensureHealthMonitor();
  if (!primaryHealth().up) throw primaryUnavailable();
  try {
    const prior = await replay();
    if (prior !== undefined) return prior;
  } catch (e) {
    if (isConnectionError(e)) {
      reportDown('primary', (e as Error).message);
      throw primaryUnavailable(e);
    }
    throw e;
  }
  try {
    const r = await write(req, async (tx) => {
      const result = await fn(tx);
      // An expired record under the same key no longer counts: make room for this outcome.
      await tx.idempotencyKey.deleteMany({ where: { orgId, key, createdAt: { lt: cutoff() } } });
      const stored = opts.redactForReplay ? opts.redactForReplay(result.body) : result.body;
      await tx.idempotencyKey.create({
        data: { orgId, key, requestHash: hash, responseStatus: result.status, responseBody: stored as object },
      });
      return result;
    });
    req.response.status = r.status;
    return r.body;
  } catch (e) {
    // A concurrent request with the same key won the race: answer with its outcome.
    if ((e as { code?: string }).code === 'P2002') {
      const prior = await replay();
      if (prior !== undefined) return prior;
    }
    throw e;
  }
}

/** Deletes records past their 24 hours; returns how many. Run periodically by the workers. */
export async function purgeExpiredIdempotencyKeys(db: Db = primary()): Promise<number> {
  const r = await db.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff() } } });
  return r.count;
}
