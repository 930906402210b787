// Standard Webhooks signing (https://www.standardwebhooks.com): `whsec_` secrets and the
// `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>` signature. The SDK's verifier is sdk/src/webhooks.ts.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes (Standard Webhooks asks for 24 to 64), `whsec_` + base64. */
export function newSigningSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

function secretBytes(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('not a whsec_ signing secret');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

/** One `v1,…` signature of a message. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three headers of a delivery. With several secrets (a rotation's overlap) the signature
 * header carries one signature per secret, space-separated: a receiver holding either verifies.
 */
export function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
