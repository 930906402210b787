// Email + password sign-in, hardened against guessing (points per address and email, a gate per
// email). Limits and why: docs/security.md#credentials-and-look-ups
import { RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import { readPrimary } from '../db/primary-reads';
import { AppError } from '../errors';
import { addressBucket } from '../net/client-address';
import { consumeOrRefuse, limiter, limitKey, rateLimitHeaders, type LimitPolicy } from '../rate-limits/limiters';
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

/** How long the gate's lease outlives an attempt whose process died while checking it. */
const GATE_LEASE_S = 10;

export const SIGN_IN_LIMITS = {
  byAddress: { name: 'signin_ip', points: 30, duration: 15 * 60 },
  byEmailAndAddress: { name: 'signin_email_ip', points: 10, duration: 15 * 60 },
  /** Failures per email from every address (a counter, never refuses by itself): it paces the gate. */
  byEmail: { name: 'signin_email', points: 1_000_000, duration: 15 * 60 },
  /** Per email: one attempt checked at a time (a lease), shut for gateClosedMs after a failure. */
  emailGate: { name: 'signin_email_gate', points: 1, duration: GATE_LEASE_S },
} satisfies Record<string, LimitPolicy>;

const FREE_FAILURES = 10;
const CLOSED_PER_FAILURE_MS = 250;
const MAX_CLOSED_MS = 30_000;
/** What a shut gate holds: more than any number of attempts that pile onto a lease. */
const SHUT = 1_000_000;

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

/** How long an email's gate stays shut after its `failures`-th recent failure. */
export function gateClosedMs(failures: number): number {
  return Math.min(MAX_CLOSED_MS, Math.max(0, failures - FREE_FAILURES) * CLOSED_PER_FAILURE_MS);
}

const TOO_MANY = 'too many sign-in attempts: try again later';

/** Takes the email's gate, or refuses: another attempt is being checked, or it is shut a while. */
async function enterGate(email: string): Promise<void> {
  const policy = SIGN_IN_LIMITS.emailGate;
  try {
    await limiter(policy).consume(email);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    // Shut after a failure: for as long as it stays shut. Held by an attempt being checked: a
    // second, about what a check takes (the lease's own expiry is only for a process that died).
    const shut = e.consumedPoints > SHUT;
    const retryAfter = shut ? Math.max(1, Math.ceil(e.msBeforeNext / 1000)) : 1;
    throw new AppError('rate_limited', TOO_MANY, { retryAfter, headers: rateLimitHeaders(policy, e) });
  }
}

/** Gives the gate back: open at once, or shut for `closedMs`. */
async function leaveGate(email: string, closedMs: number): Promise<void> {
  const gate = limiter(SIGN_IN_LIMITS.emailGate);
  await (closedMs > 0 ? gate.set(email, SHUT, closedMs / 1000) : gate.delete(email)).catch(() => {});
}

/** The user for these credentials, or null. Throws rate_limited when over the limits. */
export async function checkCredentials(raw: unknown, address: string): Promise<SignedInUser | null> {
  const parsed = Credentials.safeParse(raw);
  const bucket = addressBucket(address);
  await consumeOrRefuse(SIGN_IN_LIMITS.byAddress, bucket, TOO_MANY);
  if (!parsed.success) {
    await verifyPassword(await dummy(), ''); // the same work as any other failure
    return null;
  }
  const email = limitKey(parsed.data.email);
  const pair = limitKey(`${email}|${bucket}`);
  await enterGate(email);
  let closedMs = 0;
  try {
    // After the gate: an attempt refused there costs this address's budget for the email nothing.
    await consumeOrRefuse(SIGN_IN_LIMITS.byEmailAndAddress, pair, TOO_MANY);
    const user = await verify(parsed.data);
    if (user) {
      // Only once the password is right: a wrong one says nothing about the account's organizations.
      await refuseWhereSsoIsRequired(user.id);
      await Promise.all([
        limiter(SIGN_IN_LIMITS.byAddress).reward(bucket, 1),
        limiter(SIGN_IN_LIMITS.byEmailAndAddress).delete(pair),
        limiter(SIGN_IN_LIMITS.byEmail).delete(email),
      ]).catch(() => {});
      return user;
    }
    const failures = await limiter(SIGN_IN_LIMITS.byEmail)
      .penalty(email, 1)
      .then((r) => r.consumedPoints)
      .catch(() => 0);
    closedMs = gateClosedMs(failures);
    return null;
  } finally {
    await leaveGate(email, closedMs);
  }
}

/**
 * A member of an organization that requires single sign-on signs in through it, never with a
 * password: 403 sso_required, naming the workspace (docs/flows/single-sign-on.md#require-sso).
 */
async function refuseWhereSsoIsRequired(userId: string): Promise<void> {
  const bound = await readPrimary((db) =>
    db.membership.findFirst({
      where: { userId, organization: { sso: { is: { requireSso: true } } } },
      select: { organization: { select: { slug: true } } },
      orderBy: { createdAt: 'asc' },
    }),
  );
  if (!bound) return;
  throw new AppError(
    'sso_required',
    `${bound.organization.slug} signs in with single sign-on: use “Sign in with SSO”`,
    {
      extra: { workspace: bound.organization.slug },
    },
  );
}

/** The argon2id check and, for a sign-in that names a workspace, the membership there. */
async function verify(creds: z.infer<typeof Credentials>): Promise<SignedInUser | null> {
  // On the primary: a password just changed, or an account just made, must count at once.
  const user = await readPrimary((db) => findUserByEmail(db, creds.email));
  // No user, or one with no password yet (a first admin before their link): the same argon2 work
  // against the dummy hash, and a failure whatever was typed.
  const ok = (await verifyPassword(user?.passwordHash ?? (await dummy()), creds.password)) && !!user?.passwordHash;
  // A sign-in that names a workspace needs a membership there. Looked up whatever the password,
  // so a workspace that doesn't exist (a directory decoy) fails exactly like a wrong password.
  const membership = creds.workspace
    ? await readPrimary((db) =>
        db.membership.findFirst({
          where: { userId: user?.id ?? '', organization: { slug: creds.workspace, status: { not: 'suspended' } } },
          select: { orgId: true },
        }),
      )
    : null;
  if (!user || !ok || (creds.workspace && !membership)) return null;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    sessionVersion: user.sessionVersion,
    ...(membership ? { orgId: membership.orgId } : {}),
  };
}
