// Password hashing: argon2id with the library's defaults (OWASP-grade memory cost).
import { hash, verify } from '@node-rs/argon2';

/** @node-rs/argon2's `Algorithm.Argon2id` (a const enum, which isolated modules cannot import). */
const ARGON2ID = 2;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

/** A user without a password yet (a first admin who has not used their link) matches nothing. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** The least length of a password a person chooses (NIST SP 800-63B asks 8; we ask more, no other rules). */
export const MIN_PASSWORD_LENGTH = 12;
/** Sign-in takes at most this many characters too: argon2's work stays bounded. */
export const MAX_PASSWORD_LENGTH = 1024;

/** Why `password` can't be chosen by `email`'s owner, or null when it can. */
export function passwordProblem(password: string, email: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `at most ${MAX_PASSWORD_LENGTH} characters`;
  if (new Set(password).size < 4) return 'more than a few distinct characters';
  const local = email.split('@')[0]!.toLowerCase();
  if (password.toLowerCase().includes(email.toLowerCase()) || (local.length >= 4 && password.toLowerCase() === local)) {
    return 'something other than your email address';
  }
  return null;
}
