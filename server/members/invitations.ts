// Invitations: an admin invites an email with a role; the invitee accepts once, at the workspace's
// region, within 7 days, with a new password, (already a user) their own, or (the workspace
// requires single sign-on) none: they sign in with SSO. Token handling:
// docs/security.md#invitation-links; the flow: docs/flows/members-and-invitations.md
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { emitWebhook } from '../webhooks/events';
import { view as memberViewOf } from './members';
import { changed as identityChanged } from '../auth/identity-cache';
import { hashPassword, passwordProblem } from '../auth/password';
import { checkCredentials } from '../auth/sign-in';
import { homeRegionOf } from '../cell/workspaces';
import { read, write, type Tx } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import { readPrimary } from '../db/primary-reads';
import type { DataRequest } from '../db/request-state';
import { execute } from '../db/sql';
import { AppError } from '../errors';
import { newId } from '../ids';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { actorMetadata, type Actor } from './actor';
import {
  invitationExpiry,
  invitationSecretMatches,
  mintInvitationToken,
  parseInvitationToken,
} from './invitation-token';
import { sendInvitationMail, type Delivery } from './mailer';
import { lockOrgMembers } from './members.sql';
import { ORG_ROLES, type OrgRole } from './roles';

/** Invitations one organization may create or resend per hour, counted in the shared store. */
export const INVITATION_LIMIT: LimitPolicy = { name: 'invitations_org', points: 30, duration: 3600 };
/** Open (unaccepted, unrevoked) invitations an organization may hold at once. */
export const MAX_OPEN_INVITATIONS = 200;

export const invitationView = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ORG_ROLES),
  status: z.enum(['pending', 'expired', 'accepted', 'revoked']),
  invited_by: z.string().nullable().describe('the inviting admin’s email; null for an API key'),
  created_at: z.string(),
  expires_at: z.string(),
  sent_at: z.string().nullable().describe('when the mail last went out; null when none was sent'),
});
export type InvitationView = z.infer<typeof invitationView>;

export const createdInvitationView = invitationView.extend({
  link: z.string().describe('The single-use link, shown once (here and in the mail): copy it now'),
  delivery: z
    .enum(['sent', 'not_configured', 'failed'])
    .describe('The mail: sent, not configured on this deployment (SMTP_URL), or failed (share the link)'),
});

type Row = {
  id: string;
  email: string;
  role: OrgRole;
  createdAt: Date;
  expiresAt: Date;
  sentAt: Date | null;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  invitedBy: { email: string } | null;
};

function statusOf(r: Pick<Row, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()) {
  if (r.acceptedAt) return 'accepted' as const;
  if (r.revokedAt) return 'revoked' as const;
  return r.expiresAt <= now ? ('expired' as const) : ('pending' as const);
}

const view = (r: Row): InvitationView => ({
  id: r.id,
  email: r.email,
  role: r.role,
  status: statusOf(r),
  invited_by: r.invitedBy?.email ?? null,
  created_at: r.createdAt.toISOString(),
  expires_at: r.expiresAt.toISOString(),
  sent_at: r.sentAt?.toISOString() ?? null,
});

const INCLUDE = { invitedBy: { select: { email: true } } } as const;

/** Open invitations (pending and expired, not accepted or revoked), newest first. */
export async function invitationsOf(req: DataRequest, orgId: string, page: { limit: number; cursor?: string }) {
  const after = page.cursor !== undefined ? decodeTimeCursor(page.cursor, 'inv') : undefined;
  if (page.cursor !== undefined && !after) {
    throw new AppError('invalid_request', 'cursor: not one this API returned; start again without it');
  }
  return read(req, async (db) => {
    const rows = await db.invitation.findMany({
      where: {
        orgId,
        acceptedAt: null,
        revokedAt: null,
        ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {}),
      },
      include: INCLUDE,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
    });
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    return {
      data: items.map(view),
      next_cursor: rows.length > page.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
    };
  });
}

/** The organization's region address, where its invitations are accepted (never the global one). */
async function acceptBase(db: Tx, orgId: string) {
  const org = await db.organization.findUniqueOrThrow({ where: { id: orgId }, include: { allowedRegions: true } });
  const registry = await regionRegistry();
  const home = homeRegionOf(
    {
      homeRegion: org.homeRegion,
      defaultRegion: org.defaultRegion,
      allowedRegions: org.allowedRegions.map((r) => r.region),
    },
    registry.all().map((r) => r.code),
  );
  const region = home ? registry.get(home) : undefined;
  if (!region) throw new AppError('conflict', 'this organization has no region to accept invitations at');
  return { org, region: region.code, baseUrl: region.baseUrl.replace(/\/$/, '') };
}

export const invitationLink = (baseUrl: string, token: string) => `${baseUrl}/invite/${token}`;

async function mailAndMark(
  req: DataRequest,
  inv: Row & { orgName: string; orgSlug: string },
  link: string,
): Promise<Delivery> {
  const delivery = await sendInvitationMail({
    to: inv.email,
    orgName: inv.orgName,
    orgSlug: inv.orgSlug,
    role: inv.role,
    link,
    expiresAt: inv.expiresAt,
    invitedBy: inv.invitedBy?.email ?? null,
  });
  if (delivery === 'sent') {
    const at = new Date();
    await write(req, (tx) => tx.invitation.update({ where: { id: inv.id }, data: { sentAt: at } }));
    inv.sentAt = at;
  }
  return delivery;
}

/** One of the organization's INVITATION_LIMIT sends (an invitation or a resend) this hour, or 429. */
function spendInvitation(orgId: string): Promise<void> {
  return consumeOrRefuse(
    INVITATION_LIMIT,
    orgId,
    `this organization sent ${INVITATION_LIMIT.points} invitations in the last hour: try again later`,
  );
}

/** Invites `email` with `role`: the link is in the answer, once, and in the mail when SMTP_URL is set. */
export async function createInvitation(req: DataRequest, actor: Actor, input: { email: string; role: OrgRole }) {
  const email = input.email.trim().toLowerCase();
  await spendInvitation(actor.orgId);
  const token = mintInvitationToken();
  const now = new Date();
  const { inv, baseUrl } = await write(req, async (tx) => {
    await execute(tx, lockOrgMembers, actor.orgId);
    const member = await tx.membership.findFirst({ where: { orgId: actor.orgId, user: { email } } });
    if (member) throw new AppError('conflict', `${email} is already a member of this organization`);
    const open = await tx.invitation.findFirst({
      where: { orgId: actor.orgId, email, acceptedAt: null, revokedAt: null },
    });
    if (open && open.expiresAt > now) {
      throw new AppError('conflict', `${email} has a pending invitation: resend it or revoke it`, {
        extra: { invitation_id: open.id },
      });
    }
    // An expired one makes way for the new one (one open invitation per email).
    if (open) await tx.invitation.update({ where: { id: open.id }, data: { revokedAt: now } });
    const count = await tx.invitation.count({ where: { orgId: actor.orgId, acceptedAt: null, revokedAt: null } });
    if (count >= MAX_OPEN_INVITATIONS) {
      throw new AppError(
        'limit_exceeded',
        `this organization has ${count} open invitations, the most it may hold: revoke some, then invite`,
        { extra: { limit: MAX_OPEN_INVITATIONS } },
      );
    }
    const { org, baseUrl } = await acceptBase(tx, actor.orgId);
    const row = await tx.invitation.create({
      data: {
        id: newId('inv'),
        orgId: actor.orgId,
        email,
        role: input.role,
        prefix: token.prefix,
        secretHash: token.secretHash,
        invitedById: actor.userId,
        expiresAt: invitationExpiry(now),
      },
      include: INCLUDE,
    });
    await recordAudit(tx, {
      action: 'invitation.create',
      targetType: 'invitation',
      targetId: row.id,
      orgId: actor.orgId,
      actorId: actor.userId,
      requestId: req.requestId,
      metadata: { email, role: input.role, ...actorMetadata(actor) },
    });
    return { inv: { ...row, orgName: org.name, orgSlug: org.slug }, baseUrl };
  });
  const link = invitationLink(baseUrl, token.token);
  const delivery = await mailAndMark(req, inv, link);
  return { ...view(inv), link, delivery };
}

/** A new link (and mail) for an open invitation, valid 7 days from now: the old link stops working. */
export async function resendInvitation(req: DataRequest, actor: Actor, id: string) {
  await spendInvitation(actor.orgId);
  const token = mintInvitationToken();
  const now = new Date();
  const { inv, baseUrl } = await write(req, async (tx) => {
    const found = await tx.invitation.findFirst({
      where: { id, orgId: actor.orgId, acceptedAt: null, revokedAt: null },
    });
    if (!found) throw new AppError('not_found', `no open invitation ${id}`);
    const row = await tx.invitation.update({
      where: { id },
      data: { prefix: token.prefix, secretHash: token.secretHash, expiresAt: invitationExpiry(now), sentAt: null },
      include: INCLUDE,
    });
    const { org, baseUrl } = await acceptBase(tx, actor.orgId);
    await recordAudit(tx, {
      action: 'invitation.resend',
      targetType: 'invitation',
      targetId: id,
      orgId: actor.orgId,
      actorId: actor.userId,
      requestId: req.requestId,
      metadata: { email: row.email, role: row.role, ...actorMetadata(actor) },
    });
    return { inv: { ...row, orgName: org.name, orgSlug: org.slug }, baseUrl };
  });
  const link = invitationLink(baseUrl, token.token);
  const delivery = await mailAndMark(req, inv, link);
  return { ...view(inv), link, delivery };
}

export async function revokeInvitation(req: DataRequest, actor: Actor, id: string) {
  return write(req, async (tx) => {
    const found = await tx.invitation.findFirst({
      where: { id, orgId: actor.orgId, acceptedAt: null, revokedAt: null },
    });
    if (!found) throw new AppError('not_found', `no open invitation ${id}`);
    const row = await tx.invitation.update({ where: { id }, data: { revokedAt: new Date() }, include: INCLUDE });
    await recordAudit(tx, {
      action: 'invitation.revoke',
      targetType: 'invitation',
      targetId: id,
      orgId: actor.orgId,
      actorId: actor.userId,
      requestId: req.requestId,
      metadata: { email: row.email, role: row.role, ...actorMetadata(actor) },
    });
    return view(row);
  });
}

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
  const status = statusOf(inv, now);
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
  const status = statusOf(inv, now);
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
