// The directory's keys, all derived from MERIDIAN_DIRECTORY_SECRET by HKDF-SHA-256: each cell's
// signing key per version and the decoy key; the directory stores no key (docs/flows/directory.md).
import { createHmac, hkdfSync } from 'node:crypto';
import { env } from '../env';

const SALT = 'meridian/directory/v1';

/** The directory's secret; tests run on a fixed value that signs nothing real. */
export function directorySecret(): string {
  const secret = env().MERIDIAN_DIRECTORY_SECRET;
  if (secret) return secret;
  if (env().NODE_ENV === 'test') return 'meridian-test-directory-secret-signs-nothing-real';
  throw new Error(
    'MERIDIAN_DIRECTORY_SECRET is not set: the directory cannot verify cells without it (32+ characters)',
  );
}

function derive(secret: string, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, info, 32));
}

/** The signing key of `region`'s cell at key `version` (what `npm run directory:rotate` hands out). */
export function cellKey(region: string, version: number, secret = directorySecret()): Buffer {
  return derive(secret, `cell:${region}:v${version}`);
}

/** HMAC of the slug under the decoy key: the same slug always picks the same decoy region. */
export function decoyHash(slug: string, secret = directorySecret()): Buffer {
  return createHmac('sha256', derive(secret, 'decoy')).update(slug).digest();
}
