// Checking a signed cell → directory call, in the transaction that then applies it, so that a
// refused call changes nothing: the headers' shape, the timestamp (±300 s), the key version (the
// region's current one, or the previous one while a rotation is in progress), the HMAC, and the
// nonce (recorded until its window passes; a nonce seen before is a replay). Expired nonces are
// pruned by the same transaction. Every refusal is counted in /metrics by reason.
import { AppError, type ErrorCode } from '../errors';
import { isRegionCode } from '../region/code';
import { metrics } from '../telemetry/metrics';
import type { Tx } from '../db/access';
import { cellKey } from './keys';
import { SIGNATURE_HEADERS as H, SIGNATURE_WINDOW_SECONDS, signatureMatches } from './signature';

export interface SignedRequest {
  method: string;
  pathAndQuery: string;
  headers: Headers;
  body: string;
}

export type RefusalReason =
  | 'malformed_headers'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'unknown_key_version'
  | 'bad_signature'
  | 'replayed_nonce'
  | 'other_region'
  | 'target_not_active'
  | 'not_offered';

export function refuse(reason: RefusalReason, code: ErrorCode, message: string): AppError {
  metrics.directoryRefusals.inc({ reason });
  return new AppError(code, message, { extra: { reason } });
}

const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** The cell's region when the call is authentic; throws a 401 refusal otherwise. */
export async function verifySignedRequest(tx: Tx, req: SignedRequest, now = Date.now()): Promise<string> {
  const region = req.headers.get(H.cell) ?? '';
  const versionText = req.headers.get(H.keyVersion) ?? '';
  const tsText = req.headers.get(H.timestamp) ?? '';
  const nonce = req.headers.get(H.nonce) ?? '';
  const signature = req.headers.get(H.signature) ?? '';
  if (
    !isRegionCode(region) ||
    !/^[1-9][0-9]{0,5}$/.test(versionText) ||
    !/^[0-9]{1,12}$/.test(tsText) ||
    !NONCE.test(nonce) ||
    !/^v1=[0-9a-f]{64}$/.test(signature)
  ) {
    throw refuse(
      'malformed_headers',
      'invalid_signature',
      'a signed call needs X-Meridian-Cell, -Key-Version, -Timestamp, -Nonce and -Signature (v1=<hex>)',
    );
  }
  const version = Number(versionText);
  const timestamp = Number(tsText);
  const skew = timestamp - Math.floor(now / 1000);
  if (skew < -SIGNATURE_WINDOW_SECONDS)
    throw refuse('stale_timestamp', 'stale_request', 'the timestamp is more than 300 s old');
  if (skew > SIGNATURE_WINDOW_SECONDS)
    throw refuse('future_timestamp', 'stale_request', 'the timestamp is more than 300 s ahead');

  // A region that never registered has key version 1 (what a new cell is given).
  const row = await tx.directoryRegion.findUnique({
    where: { code: region },
    select: { keyVersion: true, previousKeyVersion: true, previousKeyUntil: true },
  });
  const current = row?.keyVersion ?? 1;
  const previousOk = row?.previousKeyVersion === version && (row.previousKeyUntil?.getTime() ?? 0) > now;
  if (version !== current && !previousOk) {
    throw refuse('unknown_key_version', 'unknown_key_version', `key version ${version} is not accepted for ${region}`);
  }
  const parts = { method: req.method, pathAndQuery: req.pathAndQuery, region, timestamp, nonce, body: req.body };
  if (!signatureMatches(cellKey(region, version), parts, signature)) {
    throw refuse('bad_signature', 'invalid_signature', 'the signature does not match this call');
  }

  await tx.directoryNonce.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  // Kept until the timestamp's window has passed: after that the call is stale anyway.
  const expiresAt = new Date((timestamp + SIGNATURE_WINDOW_SECONDS) * 1000);
  const inserted = await tx.$executeRaw`
    INSERT INTO "directory"."nonces" ("nonce", "cell", "expires_at") VALUES (${nonce}, ${region}, ${expiresAt})
    ON CONFLICT ("nonce") DO NOTHING`;
  if (inserted === 0) throw refuse('replayed_nonce', 'replayed_request', 'this nonce was used already');
  return region;
}
