// Invitation link secrets, `mi_{12 base62 prefix}_{43 base62 secret}`: the prefix finds the row,
// only the secret's SHA-256 is stored, and it is compared in constant time (as API keys are).
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../ids';

export const INVITATION_TOKEN_RE = /^mi_([0-9A-Za-z]{12})_([0-9A-Za-z]{43})$/;
/** How long an invitation link works. */
export const INVITATION_TTL_DAYS = 7;

export function mintInvitationToken(): { token: string; prefix: string; secretHash: string } {
  const prefix = randomBase62(12);
  const secret = randomBase62(43); // ≈ 256 bits
  return { token: `mi_${prefix}_${secret}`, prefix, secretHash: hashInvitationSecret(secret) };
}

export function parseInvitationToken(raw: string): { prefix: string; secret: string } | undefined {
  const m = INVITATION_TOKEN_RE.exec(raw);
  return m ? { prefix: m[1]!, secret: m[2]! } : undefined;
}

/** 256-bit random secrets need no stretching: a keyed-by-purpose SHA-256 is enough. */
export function hashInvitationSecret(secret: string): string {
  return createHash('sha256').update(`meridian-invitation:${secret}`).digest('hex');
}

export function invitationSecretMatches(secret: string, storedHash: string): boolean {
  const a = Buffer.from(hashInvitationSecret(secret), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** When an invitation sent at `now` stops working. */
export function invitationExpiry(now: Date): Date {
  return new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 3600_000);
}
