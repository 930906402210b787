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
import { refusedAtLimit } from '../db/errors';
import { AppError } from '../errors';
import { newId } from '../ids';
import type { OrgContext } from '../organizations/context';
import { consumeOrRefuse, type LimitPolicy } from '../rate-limits/limiters';
import { regionRegistry } from '../region/registry';
import { actorMetadata, type Actor } from '../audit/actor';
import { invitationExpiry, mintInvitationToken } from './invitation-token';
import { sendInvitationMail, type Delivery } from './mailer';
import { createInvitationStatement, revokeInvitationStatement, type InvitationRow } from './invitations.sql';
import { ORG_ROLES, type OrgRole } from './roles';

/** Invitations one organization may create or resend per hour, counted in the shared store. */
export const INVITATION_LIMIT: LimitPolicy = { name: 'invitations_org', points: 30, duration: 3600 };
/**
 * Open (unaccepted, unrevoked) invitations an organization may hold at once: the `invitations_cap`
 * trigger (migration 20270102000000_one_statement_writes) holds the same number.
 */
export const MAX_OPEN_INVITATIONS = 200;
/** The SQLSTATE the trigger raises at the cap (DETAIL: the open invitations). */
const OPEN_INVITATIONS_CAP_STATE = 'MLIM1';

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
async function acceptBaseUrl(org: Pick<OrgContext, 'homeRegion' | 'defaultRegion' | 'allowedRegions'>) {
  const registry = await regionRegistry();
  const home = homeRegionOf(
    org,
    registry.all().map((r) => r.code),
  );
  const region = home ? registry.get(home) : undefined;
  if (!region) throw new AppError('conflict', 'this organization has no region to accept invitations at');
  return region.baseUrl.replace(/\/$/, '');
}

/** acceptBaseUrl of the organization as `db` reads it, and the organization. */
async function acceptBase(db: Tx, orgId: string) {
  const org = await db.organization.findUniqueOrThrow({ where: { id: orgId }, include: { allowedRegions: true } });
  const baseUrl = await acceptBaseUrl({ ...org, allowedRegions: org.allowedRegions.map((r) => r.region) });
  return { org, baseUrl };
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
export async function createInvitation(
  req: DataRequest,
  actor: Actor,
  org: OrgContext,
  input: { email: string; role: OrgRole },
) {
  const email = input.email.trim().toLowerCase();
  await spendInvitation(actor.orgId);
  const baseUrl = await acceptBaseUrl(org);
  const token = mintInvitationToken();
  const now = new Date();
  // One statement, sent with the bookmark: one round trip (docs/flows/reads-and-writes.md).
  const [r] = await writeStatement(req, (send) =>
    refusedAtCap(() =>
      send(
        createInvitationStatement,
        actor.orgId,
        newId('inv'),
        email,
        input.role,
        token.prefix,
        token.secretHash,
        actor.userId,
        invitationExpiry(now),
        now,
        auditParam({
          action: 'invitation.create',
          targetType: 'invitation',
          orgId: actor.orgId,
          actorId: actor.userId,
          requestId: req.requestId,
          metadata: { email, role: input.role, ...actorMetadata(actor) },
        }),
      ),
    ),
  );
  if (!r) throw new Error('invitation create returned no row');
  if (r.member) throw new AppError('conflict', `${email} is already a member of this organization`);
  if (!r.created) {
    throw new AppError('conflict', `${email} has a pending invitation: resend it or revoke it`, {
      extra: r.pending ? { invitation_id: r.pending } : {},
    });
  }
  const inv = { ...r.created, orgName: r.orgName ?? org.slug, orgSlug: org.slug };
  const link = invitationLink(baseUrl, token.token);
  const delivery = await mailAndMark(req, inv, link);
  return { ...view(inv), link, delivery };
}

/** The create's statement, its refusal at the cap answered as 409 limit_exceeded. */
function refusedAtCap<T>(send: () => Promise<T>): Promise<T> {
  return refusedAtLimit(
    OPEN_INVITATIONS_CAP_STATE,
    MAX_OPEN_INVITATIONS,
    (count) => `this organization has ${count} open invitations, the most it may hold: revoke some, then invite`,
    send,
  );
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
