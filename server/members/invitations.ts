// Invitations: an admin invites an email with a role; the invitee accepts once, at the workspace's
// region, within 7 days, with a new password, (already a user) their own, or (the workspace
// requires single sign-on) none: they sign in with SSO. Token handling:
// docs/security.md#invitation-links; the flow: docs/flows/members-and-invitations.md. Accepting (the
// invitee's side): invitation-acceptance.ts
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { auditParam } from '../audit/audit-cte';
import { homeRegionOf } from '../cell/workspaces';
import { read, write, writeStatement, type Tx } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { execute } from '../db/sql';
import { AppError } from '../errors';
import { newId } from '../ids';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { actorMetadata, type Actor } from '../audit/actor';
import { invitationExpiry, mintInvitationToken } from './invitation-token';
import { sendInvitationMail, type Delivery } from './mailer';
import { revokeInvitationStatement, type InvitationRow } from './invitations.sql';
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

type Row = InvitationRow;

/** pending, accepted, revoked or expired (as of `now`). */
export function invitationStatus(r: Pick<Row, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now = new Date()) {
  if (r.acceptedAt) return 'accepted' as const;
  if (r.revokedAt) return 'revoked' as const;
  return r.expiresAt <= now ? ('expired' as const) : ('pending' as const);
}

const view = (r: Row): InvitationView => ({
  id: r.id,
  email: r.email,
  role: r.role,
  status: invitationStatus(r),
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

export async function revokeInvitation(req: DataRequest, actor: Actor, id: string): Promise<InvitationView> {
  const at = new Date();
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  const [row] = await writeStatement(req, (send) =>
    send(
      revokeInvitationStatement,
      actor.orgId,
      id,
      at,
      auditParam({
        action: 'invitation.revoke',
        targetType: 'invitation',
        orgId: actor.orgId,
        actorId: actor.userId,
        requestId: req.requestId,
        metadata: actorMetadata(actor),
      }),
    ),
  );
  if (!row) throw new AppError('not_found', `no open invitation ${id}`);
  return view(row);
}
