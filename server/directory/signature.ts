// Signed cell → directory calls (CONTRACT.md, "Global address"): the canonical string and its
// HMAC-SHA-256, pure code shared by the cell that signs and the directory that verifies.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADERS = {
  cell: 'x-meridian-cell',
  keyVersion: 'x-meridian-key-version',
  timestamp: 'x-meridian-timestamp',
  nonce: 'x-meridian-nonce',
  signature: 'x-meridian-signature',
} as const;

/** Timestamps further than this from the directory's clock are refused (and nonces kept this long). */
export const SIGNATURE_WINDOW_SECONDS = 300;

export interface SignedParts {
  method: string;
  /** The path and query exactly as sent, e.g. `/internal/v1/workspaces/acme/activate?x=1`. */
  pathAndQuery: string;
  region: string;
  timestamp: number;
  nonce: string;
  body: string;
}

export function canonicalString(p: SignedParts): string {
  const bodyHash = createHash('sha256').update(p.body).digest('hex');
  return [p.method.toUpperCase(), p.pathAndQuery, p.region, String(p.timestamp), p.nonce, bodyHash].join('\n');
}

export function signatureOf(key: Buffer, p: SignedParts): string {
  return `v1=${createHmac('sha256', key).update(canonicalString(p)).digest('hex')}`;
}

/** Constant-time comparison of a presented `v1=<hex>` with the expected one. */
export function signatureMatches(key: Buffer, p: SignedParts, presented: string): boolean {
  const expected = Buffer.from(signatureOf(key, p));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The headers of a signed call. */
export function signedHeaders(
  key: Buffer,
  version: number,
  p: Omit<SignedParts, 'timestamp' | 'nonce'> & { timestamp?: number; nonce?: string },
): Record<string, string> {
  const parts: SignedParts = {
    ...p,
    timestamp: p.timestamp ?? Math.floor(Date.now() / 1000),
    nonce: p.nonce ?? newNonce(),
  };
  return {
    'X-Meridian-Cell': parts.region,
    'X-Meridian-Key-Version': String(version),
    'X-Meridian-Timestamp': String(parts.timestamp),
    'X-Meridian-Nonce': parts.nonce,
    'X-Meridian-Signature': signatureOf(key, parts),
  };
}
