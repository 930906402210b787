// An organization's members: list, change a role, remove. The last admin can be neither demoted
// nor removed; a removed person's sessions and the API keys they created end at commit
// (docs/flows/members-and-invitations.md#removal).
import { z } from 'zod';
import { recordAudit } from '../audit/audit';
import { endAllSessions } from '../auth/sessions';
import { emitWebhook } from '../webhooks/events';
import { changed as identityChanged } from '../auth/identity-cache';
import { read, write, type Tx } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { execute } from '../db/sql';
import { AppError } from '../errors';
import { actorMetadata, type Actor } from '../audit/actor';
import { lockOrgMembers } from './members.sql';
import { ORG_ROLES, ROLE_SCOPE, type OrgRole } from './roles';
import { API_KEY_SCOPES } from '../api-keys/format';

export const memberView = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ORG_ROLES),
  joined_at: z.string(),
});
export type MemberView = z.infer<typeof memberView>;

type Row = { userId: string; role: OrgRole; createdAt: Date; user: { email: string; name: string } };
/** A membership as the API (and a member.* webhook) shows it. */
export const view = (m: Row): MemberView => ({
  user_id: m.userId,
  email: m.user.email,
  name: m.user.name,
  role: m.role,
  joined_at: m.createdAt.toISOString(),
});

/** A page of the organization's members, newest first. */
export async function membersOf(req: DataRequest, orgId: string, page: { limit: number; cursor?: string }) {
  const after = page.cursor !== undefined ? decodeTimeCursor(page.cursor, 'usr') : undefined;
  if (page.cursor !== undefined && !after) {
    throw new AppError('invalid_request', 'cursor: not one this API returned; start again without it');
  }
  return read(req, async (db) => {
    const rows = await db.membership.findMany({
      where: {
        orgId,
        ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, userId: { lt: after.id } }] } : {}),
      },
      include: { user: { select: { email: true, name: true } } },
      orderBy: [{ createdAt: 'desc' }, { userId: 'desc' }],
      take: page.limit + 1,
    });
    const items = rows.slice(0, page.limit);
    const last = items.at(-1);
    return {
      data: items.map(view),
      next_cursor: rows.length > page.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.userId }) : null,
    };
  });
}

/** The membership, with the organization's membership changes serialized until `tx` ends. */
async function lockedMembership(tx: Tx, orgId: string, userId: string) {
  await execute(tx, lockOrgMembers, orgId);
  const m = await tx.membership.findUnique({
    where: { userId_orgId: { userId, orgId } },
    include: { user: { select: { email: true, name: true } } },
  });
  if (!m) throw new AppError('not_found', `no member ${userId} in this organization`);
  return m;
}

async function assertNotLastAdmin(tx: Tx, orgId: string, what: string): Promise<void> {
  const admins = await tx.membership.count({ where: { orgId, role: 'admin' } });
  if (admins <= 1) {
    throw new AppError(
      'last_admin',
      `this is the organization's last admin: make another member an admin first, then ${what}`,
    );
  }
}

/**
 * Revokes the organization's keys `userId` created whose scope reaches past `keep` (all of them
 * when `keep` is null): nobody holds a key stronger than their role, and a removed person none.
 */
async function revokeKeysCreatedBy(tx: Tx, orgId: string, userId: string, keep: OrgRole | null) {
  const allowed = keep ? API_KEY_SCOPES.slice(0, API_KEY_SCOPES.indexOf(ROLE_SCOPE[keep]) + 1) : [];
  const keys = await tx.apiKey.findMany({
    where: { orgId, createdById: userId, revokedAt: null },
    select: { id: true, prefix: true, scopes: true },
  });
  const past = keys.filter((k) => k.scopes.some((s) => !(allowed as string[]).includes(s)));
  if (past.length) {
    await tx.apiKey.updateMany({ where: { id: { in: past.map((k) => k.id) } }, data: { revokedAt: new Date() } });
  }
  return past.map((k) => k.prefix);
}

export async function setMemberRole(req: DataRequest, actor: Actor, userId: string, role: OrgRole) {
  const { member, revoked } = await write(req, async (tx) => {
    const m = await lockedMembership(tx, actor.orgId, userId);
    if (m.role === role) return { member: view(m), revoked: [] as string[] };
    if (m.role === 'admin') await assertNotLastAdmin(tx, actor.orgId, 'change this role');
    const updated = await tx.membership.update({
      where: { userId_orgId: { userId, orgId: actor.orgId } },
      data: { role },
      include: { user: { select: { email: true, name: true } } },
    });
    const revoked = await revokeKeysCreatedBy(tx, actor.orgId, userId, role);
    await recordAudit(tx, {
      action: 'membership.role_change',
      targetType: 'user',
      targetId: userId,
      orgId: actor.orgId,
      actorId: actor.userId,
      requestId: req.requestId,
      metadata: { from: m.role, to: role, email: m.user.email, revoked_keys: revoked, ...actorMetadata(actor) },
    });
    return { member: view(updated), revoked };
  });
  // This process at once; every other gateway by the memberships and api_keys triggers' NOTIFY.
  identityChanged([`user:${userId}`, ...revoked.map((p) => `key:${p}`)]);
  return member;
}

/**
 * Removes `userId` from the organization. In the same transaction: their session version moves
 * on (every session of theirs ends, on every gateway, at commit), and every key they created in
 * the organization is revoked (they saw its secret). Their other memberships stay.
 */
export async function removeMember(req: DataRequest, actor: Actor, userId: string) {
  const { member, revoked } = await write(req, async (tx) => {
    const m = await lockedMembership(tx, actor.orgId, userId);
    if (m.role === 'admin') await assertNotLastAdmin(tx, actor.orgId, 'remove this one');
    await tx.membership.delete({ where: { userId_orgId: { userId, orgId: actor.orgId } } });
    await endAllSessions(tx, userId);
    const revoked = await revokeKeysCreatedBy(tx, actor.orgId, userId, null);
    await recordAudit(tx, {
      action: 'membership.remove',
      targetType: 'user',
      targetId: userId,
      orgId: actor.orgId,
      actorId: actor.userId,
      requestId: req.requestId,
      metadata: { role: m.role, email: m.user.email, revoked_keys: revoked, ...actorMetadata(actor) },
    });
    await emitWebhook(tx, actor.orgId, 'member.removed', view(m));
    return { member: view(m), revoked };
  });
  identityChanged([`user:${userId}`, ...revoked.map((p) => `key:${p}`)]);
  return { ...member, revoked_api_keys: revoked.length };
}
