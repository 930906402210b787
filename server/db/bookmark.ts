// Causal bookmarks: the primary's WAL position after a write, HMAC-signed; it only ever asks for
// fresher data, it grants nothing. docs/flows/reads-and-writes.md
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { authSecret } from '../env';

const VERSION = 'b1';

/** The signing key, derived from AUTH_SECRET once (again only if the secret changes). */
let derived: { secret: string; key: KeyObject } | undefined;
function key(): KeyObject {
  const secret = authSecret();
  if (derived?.secret !== secret) {
    const bytes = createHmac('sha256', secret).update('meridian causal bookmark v1').digest();
    derived = { secret, key: createSecretKey(bytes) };
  }
  return derived.key;
}

function mac(payload: string): string {
  return createHmac('sha256', key()).update(payload).digest('base64url').slice(0, 22);
}

export function signBookmark(lsn: bigint): string {
  const payload = `${VERSION}.${lsn.toString(36)}`;
  return `${payload}.${mac(payload)}`;
}

/** The LSN inside a bookmark this service issued; undefined for anything else. */
export function verifyBookmark(token: string): bigint | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION || !/^[0-9a-z]{1,14}$/.test(parts[1]!)) return undefined;
  const expected = Buffer.from(mac(`${parts[0]}.${parts[1]}`));
  const given = Buffer.from(parts[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let lsn = 0n;
  for (const ch of parts[1]!) lsn = lsn * 36n + BigInt(parseInt(ch, 36));
  return lsn;
}

/** The later of two bookmarks' positions. */
export function laterLsn(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a > b ? a : b;
}

export const BOOKMARK_HEADER = 'X-Meridian-Bookmark';
export const BOOKMARK_COOKIE = 'meridian_bookmark';
