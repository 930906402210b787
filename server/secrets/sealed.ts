// Secrets Meridian must read back (an identity provider's client secret): AES-256-GCM under
// MERIDIAN_SECRETS_KEY, bound to what they belong to. docs/security.md#secrets-at-rest
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { authSecret, env } from '../env';

/** Format version: `v1.` + base64url(iv ‖ tag ‖ ciphertext). A later key or cipher gets `v2.`. */
const PREFIX = 'v1.';

function key(): Buffer {
  const configured = env().MERIDIAN_SECRETS_KEY;
  if (configured) return Buffer.from(configured, 'hex');
  // The demo and tests: derived from AUTH_SECRET, so nothing more to configure there.
  return Buffer.from(hkdfSync('sha256', authSecret(), 'meridian', 'sealed-secrets', 32));
}

/**
 * Seals `plain` for `context` (e.g. `organization_sso:org_…:client_secret`): the context is
 * authenticated, so a sealed value copied onto another row does not open there.
 */
export function sealSecret(plain: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The secret sealed for `context`; throws when it was altered, moved, or sealed under another key. */
export function openSecret(sealed: string, context: string): string {
  if (!sealed.startsWith(PREFIX)) throw new Error('not a sealed secret');
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  if (raw.length < 28) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key(), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
