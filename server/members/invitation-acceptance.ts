// Accepting an invitation: the invitee's side (the link's preview, then the accept), at the
// workspace's region. The admin's side (invite, resend, revoke, list): invitations.ts.
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { changed as identityChanged } from '../auth/identity-cache';
import { hashPassword, passwordProblem } from '../auth/password';
import { checkCredentials } from '../auth/sign-in';
import { homeRegionOf } from '../cell/workspaces';
import { write } from '../db/access';
import { readPrimary } from '../db/primary-reads';
import type { DataRequest } from '../db/request-state';
import { execute } from '../db/sql';
import { AppError } from '../errors';
import { newId } from '../ids';
import { regionRegistry } from '../region/registry';
import { emitWebhook } from '../webhooks/events';
import { invitationSecretMatches, parseInvitationToken } from './invitation-token';
import { invitationStatus } from './invitations';
import { view as memberViewOf } from './members';
import { lockOrgMembers } from './members.sql';
import { ORG_ROLES } from './roles';

const INVALID: Record<string, string> = {
  unknown: 'this invitation link is not valid: ask an admin of the organization for a new one',
  accepted: 'this invitation was used already: sign in instead',
  revoked: 'this invitation was revoked or replaced by a newer link: ask an admin for a new one',
  expired: 'this invitation expired: ask an admin of the organization to resend it',
};
const invalid = (reason: keyof typeof INVALID) =>
  new AppError('invitation_invalid', INVALID[reason]!, { extra: { reason } });

/** The invitation a link names, its secret checked in constant time, whatever its state. */
async function byToken(raw: string) {
  const parsed = parseInvitationToken(raw);
  if (!parsed) throw invalid('unknown');
  // From the primary: an invitation resent or accepted a moment ago must count at once.
  const inv = await readPrimary((db) =>
    db.invitation.findUnique({
      where: { prefix: parsed.prefix },
      include: {
        organization: {
          select: {
            id: true,
            slug: true,
            name: true,
            status: true,
            homeRegion: true,
            defaultRegion: true,
            allowedRegions: { select: { region: true } },
            sso: { select: { requireSso: true } },
          },
        },
      },
    }),
  );
  if (!inv || !invitationSecretMatches(parsed.secret, inv.secretHash)) throw invalid('unknown');
  return inv;
}

export const invitationPreview = z.object({
  organization: z.object({ slug: z.string(), name: z.string() }),
  region: z.string().describe('the workspace’s region, where the invitation is accepted'),
  email: z.string(),
  role: z.enum(ORG_ROLES),
  expires_at: z.string(),
  has_account: z.boolean().describe('true: accept with that account’s password; false: choose a password'),
  sso_required: z
    .boolean()
    .describe('true: the workspace signs in with single sign-on; a new account is made without a password'),
});

/** What the accept page shows: whose invitation, to what, and whether the email has an account. */
export async function previewInvitation(token: string, now = new Date()) {
  const inv = await byToken(token);
  const status = invitationStatus(inv, now);
  if (status !== 'pending') throw invalid(status === 'accepted' ? 'accepted' : status);
  if (inv.organization.status === 'suspended')
    throw new AppError('organization_suspended', 'this organization is suspended');
  const user = await readPrimary((db) => db.user.findUnique({ where: { email: inv.email }, select: { id: true } }));
  const o = inv.organization;
  const region = homeRegionOf(
    { homeRegion: o.homeRegion, defaultRegion: o.defaultRegion, allowedRegions: o.allowedRegions.map((r) => r.region) },
    (await regionRegistry()).all().map((r) => r.code),
  );
  return {
    organization: { slug: o.slug, name: o.name },
    region: region ?? '',
    email: inv.email,
    role: inv.role,
    expires_at: inv.expiresAt.toISOString(),
    has_account: user !== null,
    sso_required: o.sso?.requireSso === true,
  };
}

/** Who accepts: the person signed in as the invited email (an SSO seam), else a password. */
export interface Acceptance {
  token: string;
  password?: string;
  name?: string;
  /** The signed-in user's ID when their email is the invited one. */
  signedInUserId?: string;
  signedInEmail?: string;
  address: string;
}

/**
 * Accepts an invitation: a new account (with the password chosen here; none when the workspace
 * requires single sign-on, whose provider then signs the person in) or an existing one (its own
 * password, checked with sign-in's limits, or its session), then the membership. The
 * invitation is consumed atomically: of two accepts at once, one wins and the other gets
 * `410 invitation_invalid`. `now` is when the expiry is judged (tests pass one).
 */
export async function acceptInvitation(req: DataRequest, a: Acceptance, now = new Date()) {
  const inv = await byToken(a.token);
  const status = invitationStatus(inv, now);
  if (status !== 'pending') throw invalid(status === 'accepted' ? 'accepted' : status);
  if (inv.organization.status === 'suspended')
    throw new AppError('organization_suspended', 'this organization is suspended');

  const existing = await readPrimary((db) => db.user.findUnique({ where: { email: inv.email } }));
  let userId: string | undefined;
  let newUser: { name: string; passwordHash: string | null } | undefined;
  if (existing && a.signedInUserId === existing.id) {
    userId = existing.id;
  } else if (existing) {
    if (!a.password) throw new AppError('invalid_request', 'this email has an account: give its password to accept');
    const user = await checkCredentials({ email: inv.email, password: a.password }, a.address);
    if (!user) throw new AppError('unauthenticated', 'that is not the password of this account');
    userId = user.id;
  } else if (inv.organization.sso?.requireSso) {
    // A password here would be one the workspace's members may never use: refused, not ignored.
    if (a.password !== undefined) {
      throw new AppError(
        'sso_required',
        `${inv.organization.slug} signs in with single sign-on: accept without a password, then sign in with SSO`,
        { extra: { workspace: inv.organization.slug } },
      );
    }
    newUser = { name: a.name?.trim() || inv.email.split('@')[0]!, passwordHash: null };
  } else {
    const problem = a.password === undefined ? 'a password' : passwordProblem(a.password, inv.email);
    if (problem) {
      throw new AppError('invalid_request', `choose a password of ${problem}`, {
        extra: { details: [{ path: ['password'], message: problem }] },
      });
    }
    const name = a.name?.trim() || inv.email.split('@')[0]!;
    newUser = { name, passwordHash: await hashPassword(a.password!) };
  }

  const accepted = await write(req, async (tx) => {
    await execute(tx, lockOrgMembers, inv.orgId);
    let uid = userId;
    if (newUser) {
      // Made in this transaction: a lost race for the email (another account made meanwhile) is a 409.
      const clash = await tx.user.findUnique({ where: { email: inv.email }, select: { id: true } });
      if (clash) throw new AppError('conflict', 'an account with this email was just created: sign in to accept');
      uid = (await tx.user.create({ data: { id: newId('usr'), email: inv.email, ...newUser } })).id;
    }
    // The single use: only one transaction turns this open, unexpired, unreplaced row accepted.
    const consumed = await tx.invitation.updateMany({
      where: { id: inv.id, prefix: inv.prefix, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now, acceptedById: uid },
    });
    if (consumed.count !== 1) throw invalid('accepted');
    const member = await tx.membership.findUnique({ where: { userId_orgId: { userId: uid!, orgId: inv.orgId } } });
    if (member) throw new AppError('conflict', 'you are already a member of this organization: sign in');
    const joined = await tx.membership.create({
      data: { userId: uid!, orgId: inv.orgId, role: inv.role },
      include: { user: { select: { email: true, name: true } } },
    });
    await emitWebhook(tx, inv.orgId, 'member.added', memberViewOf(joined));
    for (const action of ['invitation.accept', 'membership.add'] as const) {
      await recordAudit(tx, {
        action,
        targetType: action === 'invitation.accept' ? 'invitation' : 'user',
        targetId: action === 'invitation.accept' ? inv.id : uid,
        orgId: inv.orgId,
        actorId: uid,
        requestId: req.requestId,
        metadata: {
          email: inv.email,
          role: inv.role,
          ...(newUser ? { account: 'created' } : {}),
          ...(newUser && newUser.passwordHash === null ? { sign_in: 'sso' } : {}),
        },
      });
    }
    return { userId: uid! };
  });
  identityChanged([`user:${accepted.userId}`]);
  return {
    organization: { id: inv.organization.id, slug: inv.organization.slug, name: inv.organization.name },
    email: inv.email,
    role: inv.role,
    account: newUser ? ('created' as const) : ('existing' as const),
    sign_in: inv.organization.sso?.requireSso ? ('sso' as const) : ('password' as const),
  };
}
