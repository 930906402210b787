// Checking a signed cell → directory call: HMAC and timestamp with no database, then key version
// and nonce in the transaction that applies it (docs/flows/directory.md).
import { AppError, type ErrorCode } from '../errors';
import { isRegionCode } from '../region/code';
import { metrics } from '../telemetry/metrics';
import type { Tx } from '../db/access';
import { execute } from '../db/sql';
import { insertNonce } from './directory.sql';
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

/**
 * The one answer to a call that is not authentic, whatever the reason, so a caller learns nothing
 * of a region's key version or an open rotation; the reason is counted for the operator.
 */
export const UNAUTHENTIC_MESSAGE =
  'this call is not signed as the directory accepts: check the cell’s key file, its key version and its clock';

function unauthentic(reason: RefusalReason): AppError {
  metrics.directoryRefusals.inc({ reason });
  return new AppError('invalid_signature', UNAUTHENTIC_MESSAGE);
}

/** A call whose signature verified: what the database step checks. */
export interface AuthenticCall {
  region: string;
  version: number;
  timestamp: number;
  nonce: string;
}

const NONCE = /^[A-Za-z0-9_-]{16,64}$/;

/** The call's signing details when its HMAC verifies and its timestamp is in the window; no database. */
export function verifySignature(req: SignedRequest, now = Date.now()): AuthenticCall {
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
    throw unauthentic('malformed_headers');
  }
  const version = Number(versionText);
  const timestamp = Number(tsText);
  const parts = { method: req.method, pathAndQuery: req.pathAndQuery, region, timestamp, nonce, body: req.body };
  // Any version's key can be derived, so the HMAC is checked before asking which are accepted.
  if (!signatureMatches(cellKey(region, version), parts, signature)) throw unauthentic('bad_signature');
  const skew = timestamp - Math.floor(now / 1000);
  if (skew < -SIGNATURE_WINDOW_SECONDS) throw unauthentic('stale_timestamp');
  if (skew > SIGNATURE_WINDOW_SECONDS) throw unauthentic('future_timestamp');
  return { region, version, timestamp, nonce };
}

/** The cell's region when an authentic call's key version is accepted and its nonce is new. */
export async function acceptAuthentic(tx: Tx, call: AuthenticCall, now = Date.now()): Promise<string> {
  const { region, version, timestamp, nonce } = call;
  // A region that never registered has key version 1 (what a new cell is given).
  const row = await tx.directoryRegion.findUnique({
    where: { code: region },
    select: { keyVersion: true, previousKeyVersion: true, previousKeyUntil: true },
  });
  const current = row?.keyVersion ?? 1;
  const previousOk = row?.previousKeyVersion === version && (row.previousKeyUntil?.getTime() ?? 0) > now;
  if (version !== current && !previousOk) throw unauthentic('unknown_key_version');

  await tx.directoryNonce.deleteMany({ where: { expiresAt: { lt: new Date(now) } } });
  // Kept until the timestamp's window has passed: after that the call is stale anyway.
  const expiresAt = new Date((timestamp + SIGNATURE_WINDOW_SECONDS) * 1000);
  const inserted = await execute(tx, insertNonce, nonce, region, expiresAt);
  if (inserted === 0) throw unauthentic('replayed_nonce');
  return region;
}
