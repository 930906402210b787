// Email + password sign-in. Failures are rate-limited (per email and per client address) and
// cost the same whether or not the email exists: an unknown email is checked against a dummy
// argon2id hash, so timing reveals nothing.
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { z } from 'zod';
import { primary } from '../db/client';
import { AppError } from '../errors';
import { hashPassword, verifyPassword } from './password';
import { findUserByEmail } from './users';

const Credentials = z.object({
  email: z.string().trim().toLowerCase().email().max(254),
  password: z.string().min(1).max(1024),
});

/** 10 failures per email and 30 per address per 15 minutes. */
const byEmail = new RateLimiterMemory({ keyPrefix: 'signin_email', points: 10, duration: 15 * 60 });
const byAddress = new RateLimiterMemory({ keyPrefix: 'signin_ip', points: 30, duration: 15 * 60 });

let dummyHash: Promise<string> | undefined;
const dummy = () => (dummyHash ??= hashPassword('meridian-dummy-password-for-unknown-emails'));

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
}

async function limited(limiter: RateLimiterMemory, key: string): Promise<void> {
  const res = await limiter.get(key);
  if (res && res.consumedPoints >= limiter.points) {
    throw new AppError('rate_limited', 'too many failed sign-ins: try again later', {
      retryAfter: Math.ceil(res.msBeforeNext / 1000),
    });
  }
}

/** The user for these credentials, or null. Throws rate_limited when over the limits. */
export async function checkCredentials(raw: unknown, address: string): Promise<SignedInUser | null> {
  const parsed = Credentials.safeParse(raw);
  const email = parsed.success ? parsed.data.email : '';
  await limited(byAddress, address);
  if (email) await limited(byEmail, email);
  const user = parsed.success ? await findUserByEmail(primary(), email) : null;
  const ok = await verifyPassword(user?.passwordHash ?? (await dummy()), parsed.success ? parsed.data.password : '');
  if (user && ok) {
    await byEmail.delete(email);
    return { id: user.id, email: user.email, name: user.name };
  }
  await byAddress.consume(address).catch(() => {});
  if (email) await byEmail.consume(email).catch(() => {});
  return null;
}
