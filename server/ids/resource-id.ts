// Resource IDs: `{prefix}_{26 base62}`, random and opaque (no region, no time inside).
// Drawn from the CSPRNG with rejection sampling, so every base62 digit is equally likely.
import { randomPoolBytes } from './random-pool';

export const ID_PREFIXES = [
  'org',
  'srv',
  'cls',
  'stk',
  'run',
  'pool',
  'alloc',
  'key',
  'evt',
  'prj',
  'usr',
  'ntf',
  'mov',
  'alr',
  'kcr',
  'inv',
  'whk',
  'msg',
  'whd',
  'ses',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const ID_BODY_LENGTH = 26;
/** 62 * 4: bytes at or above this are rejected so that `byte % 62` carries no bias. */
const REJECT_AT = 248;

const ID_RE = new RegExp(`^(${ID_PREFIXES.join('|')})_[0-9A-Za-z]{${ID_BODY_LENGTH}}$`);

/** `length` base62 characters from the CSPRNG, uniformly distributed. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // Ask for a little more than needed: ~3% of bytes are rejected.
    const bytes = randomPoolBytes(Math.min(256, Math.ceil((length - out.length) * 1.1) + 4));
    let chunk = '';
    for (let i = 0; i < bytes.length && out.length + chunk.length < length; i++) {
      const b = bytes[i]!;
      if (b < REJECT_AT) chunk += BASE62[b % 62];
    }
    out += chunk;
  }
  return out;
}

export function newId<P extends IdPrefix>(prefix: P): `${P}_${string}` {
  return `${prefix}_${randomBase62(ID_BODY_LENGTH)}`;
}

/** True when `value` is a well-formed ID, of `prefix` when given. Cheap: call before any query. */
export function isId(value: unknown, prefix?: IdPrefix): value is string {
  if (typeof value !== 'string' || !ID_RE.test(value)) return false;
  return prefix === undefined || value.startsWith(`${prefix}_`);
}

/** The prefix of a well-formed ID, or undefined. */
export function idPrefix(value: string): IdPrefix | undefined {
  const m = ID_RE.exec(value);
  return m ? (m[1] as IdPrefix) : undefined;
}
