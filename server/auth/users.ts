// Users, memberships and the organization context a signed-in user acts in.
import type { Db } from '../db/client';
import { ORG_CONTEXT_INCLUDE, toOrgContext } from '../organizations/context';
import { ORG_ROLES, type OrgRole } from '../members/roles';
import type { OrgContext } from './identity';
import { SESSION_MAX_AGE } from './session-age';

export async function findUserByEmail(db: Db, email: string) {
  return db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
}

export interface MembershipView {
  org: OrgContext;
  role: OrgRole;
}

/** Every organization the user belongs to, strongest roles first, then by slug. */
export async function membershipsOf(db: Db, userId: string): Promise<MembershipView[]> {
  const rows = await db.membership.findMany({
    where: { userId },
    include: { organization: { include: ORG_CONTEXT_INCLUDE } },
  });
  return rows
    .map((m) => ({
      role: m.role,
      org: toOrgContext(m.organization),
    }))
    .sort((a, b) =>
      a.role === b.role ? a.org.slug.localeCompare(b.org.slug) : ORG_ROLES.indexOf(b.role) - ORG_ROLES.indexOf(a.role),
    );
}

/** The user and their membership in `orgId` (null when not a member any more). */
export async function sessionSubject(
  db: Db,
  userId: string,
  orgId: string | null,
  projectId: string | null = null,
  sessionId: string | null = null,
) {
  // The session's record read beside the user, at once. Not found, the session is not one (a new
  // record announces itself, so a replica that lacks it is not asked: session-records.ts).
  const [user, record] = await Promise.all([
    db.user.findUnique({
      where: { id: userId },
      select: {
        id: true,
        email: true,
        platformRole: true,
        sessionVersion: true,
        settings: { select: { defaultRegion: true } },
      },
    }),
    sessionId
      ? db.userSession.findUnique({
          where: { id: sessionId },
          select: { userId: true, endedAt: true, createdAt: true },
        })
      : null,
  ]);
  if (!user || (sessionId && !record)) return null;
  const membership = orgId
    ? await db.membership.findUnique({
        where: { userId_orgId: { userId, orgId } },
        include: { organization: { include: ORG_CONTEXT_INCLUDE } },
      })
    : null;
  const project =
    membership && projectId
      ? await db.project.findFirst({
          where: { id: projectId, orgId: membership.orgId, deletedAt: null },
          select: { id: true, name: true, defaultRegion: true },
        })
      : null;
  return {
    user,
    project,
    session: record
      ? {
          ended: record.endedAt !== null || record.userId !== userId,
          /** A session lasts SESSION_MAX_AGE from its sign-in, however often Auth.js re-issues its token. */
          expiresAt: record.createdAt.getTime() + SESSION_MAX_AGE * 1000,
        }
      : null,
    membership: membership
      ? {
          role: membership.role,
          org: toOrgContext(membership.organization),
        }
      : null,
  };
}
