// A new organization's first admin: an existing user gets the admin membership; a new one gets a
// user without a password and a one-time, 7-day "set your password" link, redeemed at the
// workspace's region. Kept apart so it can fold into invitations later (docs/flows/workspace-lifecycle.md).
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { hashPassword } from '../auth/password';
import { endAllSessions } from '../auth/sessions';
import { write, type Tx } from '../db/access';
import { backgroundDb } from '../db/background';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';
import { newId } from '../ids';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { homeRegionOf } from '../cell/workspaces';

export const SETUP_LINK_TTL_DAYS = 7;
export const SETUP_LINK_PATH = '/set-password';

/** 32 random bytes, base64url (43 characters): high entropy, so a SHA-256 at rest is enough. */
const newToken = () => randomBytes(32).toString('base64url');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const emailSchema = z.string().trim().toLowerCase().email().max(254);
/** A new password: long enough to resist guessing, bounded so argon2 is not a denial of service. */
export const newPasswordSchema = z.string().min(12, 'at least 12 characters').max(256);

export interface FirstAdmin {
  user_id: string;
  email: string;
  /** The user existed already: they got the admin membership and no link. */
  existing_user: boolean;
  /** Shown once to whoever created the organization; only its hash is stored. */
  setup_link: { url: string; expires_at: string } | null;
}

/**
 * Makes `email` the admin of `orgId` inside the create's transaction. A person who signs
 * themselves up brings `passwordHash` (no link then).
 */
export async function addFirstAdmin(
  tx: Tx,
  o: {
    orgId: string;
    email: string;
    name?: string;
    passwordHash?: string;
    createdById: string | null;
    linkBase: string;
  },
): Promise<FirstAdmin> {
  const existing = await tx.user.findUnique({ where: { email: o.email }, select: { id: true } });
  if (existing) {
    if (o.passwordHash) {
      // A sign-up for an email that has an account: the account's owner signs in instead.
      throw new AppError('conflict', 'this email has an account already: sign in with it instead');
    }
    await tx.membership.create({ data: { userId: existing.id, orgId: o.orgId, role: 'admin' } });
    return { user_id: existing.id, email: o.email, existing_user: true, setup_link: null };
  }
  const userId = newId('usr');
  await tx.user.create({
    data: {
      id: userId,
      email: o.email,
      name: o.name?.trim() || o.email.split('@')[0]!,
      passwordHash: o.passwordHash ?? null,
      settings: { create: { theme: 'system' } },
    },
  });
  await tx.membership.create({ data: { userId, orgId: o.orgId, role: 'admin' } });
  if (o.passwordHash) return { user_id: userId, email: o.email, existing_user: false, setup_link: null };
  const token = newToken();
  const expiresAt = new Date(Date.now() + SETUP_LINK_TTL_DAYS * 86_400_000);
  await tx.passwordSetupLink.create({
    data: { tokenHash: sha256(token), userId, orgId: o.orgId, createdById: o.createdById, expiresAt },
  });
  return {
    user_id: userId,
    email: o.email,
    existing_user: false,
    setup_link: {
      url: `${o.linkBase}${SETUP_LINK_PATH}?${new URLSearchParams({ token })}`,
      expires_at: expiresAt.toISOString(),
    },
  };
}

export const SETUP_LINK_LIMIT: LimitPolicy = { name: 'password_setup_ip', points: 10, duration: 15 * 60 };

const invalidLink = () =>
  new AppError('not_found', 'this link is not valid: it was used already, or it expired. Ask for a new one');

export const setPasswordInput = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'the token from your link')
    .describe('The token from the "set your password" link'),
  password: newPasswordSchema,
});

/**
 * Redeems a link at `gatewayRegion`: only at the workspace's home region (no password is typed at
 * the global address; another region answers 421 naming the right one). One use: the row is
 * deleted in the transaction that sets the password, whoever races.
 */
export async function redeemSetupLink(
  req: DataRequest,
  gatewayRegion: string,
  address: string,
  input: z.infer<typeof setPasswordInput>,
): Promise<{ email: string; workspace: string; sign_in_url: string }> {
  if (gatewayRegion === 'global') {
    throw new AppError('wrong_region', 'set your password at your workspace’s region: open the link exactly as given');
  }
  await consumeOrRefuse(SETUP_LINK_LIMIT, address, 'too many attempts: try again later');
  const tokenHash = sha256(input.token);
  const registry = await regionRegistry();
  const passwordHash = await hashPassword(input.password);
  return write(req, async (tx) => {
    const link = await tx.passwordSetupLink.findUnique({
      where: { tokenHash },
      include: {
        user: { select: { email: true } },
        organization: {
          select: { slug: true, defaultRegion: true, homeRegion: true, allowedRegions: { select: { region: true } } },
        },
      },
    });
    if (!link || link.expiresAt <= new Date()) throw invalidLink();
    const org = link.organization;
    const home = homeRegionOf(
      { ...org, allowedRegions: org.allowedRegions.map((r) => r.region) },
      registry.all().map((r) => r.code),
    );
    if (home && home !== gatewayRegion) {
      throw new AppError('wrong_region', `set your password at ${home}, your workspace’s region`, {
        extra: { region: home, base_url: registry.get(home)?.baseUrl },
      });
    }
    // Single use under races: only the transaction that deletes the row goes on.
    const used = await tx.passwordSetupLink.deleteMany({ where: { tokenHash, expiresAt: { gt: new Date() } } });
    if (used.count !== 1) throw invalidLink();
    await tx.user.update({ where: { id: link.userId }, data: { passwordHash } });
    await endAllSessions(tx, link.userId);
    await recordAudit(tx, {
      action: 'auth.password_set',
      targetType: 'user',
      targetId: link.userId,
      orgId: link.orgId,
      actorId: link.userId,
      region: gatewayRegion,
      requestId: req.requestId,
      metadata: { via: 'setup_link' },
    });
    const base = registry.get(gatewayRegion)?.baseUrl ?? '';
    return {
      email: link.user.email,
      workspace: org.slug,
      sign_in_url: `${base}/sign-in?${new URLSearchParams({ workspace: org.slug })}`,
    };
  });
}

/** Links nobody used: deleted once expired (the workers' housekeeping). */
export async function deleteExpiredSetupLinks(): Promise<number> {
  return (await backgroundDb().passwordSetupLink.deleteMany({ where: { expiresAt: { lt: new Date() } } })).count;
}
