// Email + password sign-in, hardened against guessing. Before the (deliberately slow) argon2id
// check, each attempt atomically takes a point from its client address (30 per 15 min) and from
// its email + address pair (10 per 15 min), so concurrent attempts cannot all slip through; a
// success gives them back. Failures per email across all addresses never lock the account:
// past 10 they slow every attempt for that email down (up to 5 s), so an attacker spread over
// many addresses cannot lock the owner out, and gets very few guesses. An unknown email is
// checked against a dummy hash, so timing reveals nothing. Limits live in PostgreSQL, shared by
// every gateway process and kept across restarts.
import { z } from 'zod';
import { primary } from '../db/client';
import { consumeOrRefuse, limiter, type LimitPolicy } from '../rate-limits/limiters';
import { hashPassword, verifyPassword } from './password';
import { findUserByEmail } from './users';

const Credentials = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(1024),
  /** From a region's sign-in page reached through the directory: the workspace to act in. */
  workspace: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{1,62}$/)
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export const SIGN_IN_LIMITS = {
  byAddress: { name: 'signin_ip', points: 30, duration: 15 * 60 },
  byEmailAndAddress: { name: 'signin_email_ip', points: 10, duration: 15 * 60 },
  /** A failure counter per email (never refuses): past FREE_FAILURES it slows attempts down. */
  byEmail: { name: 'signin_email', points: 1_000_000, duration: 15 * 60 },
} satisfies Record<string, LimitPolicy>;

const FREE_FAILURES = 10;
const DELAY_PER_FAILURE_MS = 250;
const MAX_DELAY_MS = 5_000;

let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword('meridian-dummy-password-for-unknown-emails'));

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  sessionVersion: number;
  /** The workspace's organization when the sign-in named one. */
  orgId?: string;
}

/** How long an attempt for an email with `failures` recent failures waits before it is checked. */
export function slowdownMs(failures: number): number {
  return Math.min(MAX_DELAY_MS, Math.max(0, failures - FREE_FAILURES) * DELAY_PER_FAILURE_MS);
}

const TOO_MANY = 'too many sign-in attempts: try again later';

/** The user for these credentials, or null. Throws rate_limited when over the limits. */
export async function checkCredentials(raw: unknown, address: string): Promise<SignedInUser | null> {
  const parsed = Credentials.safeParse(raw);
  const email = parsed.success ? parsed.data.email : '';
  const pair = `${email}|${address}`;
  await consumeOrRefuse(SIGN_IN_LIMITS.byAddress, address, TOO_MANY);
  if (email) await consumeOrRefuse(SIGN_IN_LIMITS.byEmailAndAddress, pair, TOO_MANY);
  const failures = email ? ((await limiter(SIGN_IN_LIMITS.byEmail).get(email))?.consumedPoints ?? 0) : 0;
  const wait = slowdownMs(failures);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));

  const user = parsed.success ? await findUserByEmail(primary(), email) : null;
  const ok = await verifyPassword(user?.passwordHash ?? (await dummy()), parsed.success ? parsed.data.password : '');
  // A sign-in that names a workspace needs a membership there. Looked up whatever the password,
  // so a workspace that doesn't exist (a directory decoy) fails exactly like a wrong password.
  const workspace = parsed.success ? parsed.data.workspace : undefined;
  const membership = workspace
    ? await primary().membership.findFirst({
        where: { userId: user?.id ?? '', organization: { slug: workspace, status: { not: 'suspended' } } },
        select: { orgId: true },
      })
    : null;
  if (user && ok && (!workspace || membership)) {
    await Promise.all([
      limiter(SIGN_IN_LIMITS.byAddress).reward(address, 1),
      limiter(SIGN_IN_LIMITS.byEmailAndAddress).delete(pair),
      limiter(SIGN_IN_LIMITS.byEmail).delete(email),
    ]).catch(() => {});
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      sessionVersion: user.sessionVersion,
      ...(membership ? { orgId: membership.orgId } : {}),
    };
  }
  if (email)
    await limiter(SIGN_IN_LIMITS.byEmail)
      .penalty(email, 1)
      .catch(() => {});
  return null;
}
