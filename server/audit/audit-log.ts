// The audit log: every event newest first, filtered by actor, action (a prefix with `*`) and time,
// keyset-paged by (created_at, id). Operators read all of it (Atlas); an organization reads its own
// (Arc), scoped here, in the query, whatever the caller passed.
import { z } from 'zod';
import { read } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import type { DataRequest } from '../db/request-state';
import { AppError } from '../errors';

export interface AuditFilter {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

export const auditView = z.object({
  id: z.string(),
  action: z.string(),
  actor: z.object({ id: z.string(), email: z.string() }).nullable(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  org_id: z.string().nullable(),
  region: z.string().nullable(),
  request_id: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  /** True when details only admins read were left out of `metadata` (member-view.ts). */
  redacted: z.boolean().describe('true: details only admins read were left out of metadata'),
  created_at: z.string(),
});
export type AuditView = z.infer<typeof auditView>;

/** Actions an organization's log leaves out: a failed sign-in names whoever typed an email (or an
 * account of another organization), not one of its people acting. Atlas' log has them. */
const NOT_THE_ORGANIZATIONS = ['auth.sign_in_failed'];

/** An organization's own events: what its people did, and what operators did to it. */
export function listOrganizationAudit(req: DataRequest, orgId: string, f: AuditFilter) {
  return listAudit(req, f, { orgId });
}

/** `scope`: the whole platform's log (Atlas), or one organization's — said, never defaulted. */
export async function listAudit(
  req: DataRequest,
  f: AuditFilter,
  scope: 'platform' | { orgId: string },
): Promise<{ data: AuditView[]; next_cursor: string | null }> {
  const after = f.cursor ? decodeTimeCursor(f.cursor) : undefined;
  if (f.cursor && !after) throw new AppError('invalid_request', 'malformed cursor');
  const actor = f.actor?.trim();
  const action = f.action?.trim();
  const rows = await read(req, (db) =>
    db.auditEvent.findMany({
      where: {
        AND: [
          scope === 'platform' ? {} : { orgId: scope.orgId, action: { notIn: NOT_THE_ORGANIZATIONS } },
          actor ? (actor.includes('@') ? { actor: { email: actor.toLowerCase() } } : { actorId: actor }) : {},
          action ? (action.endsWith('*') ? { action: { startsWith: action.slice(0, -1) } } : { action }) : {},
          f.from ? { createdAt: { gte: new Date(f.from) } } : {},
          f.to ? { createdAt: { lt: new Date(f.to) } } : {},
          // The bound first: the index scan starts at the cursor instead of reading down to it.
          after ? { createdAt: { lte: after.at } } : {},
          after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] } : {},
        ],
      },
      include: { actor: { select: { id: true, email: true } } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    }),
  );
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map((e) => ({
      id: e.id,
      action: e.action,
      actor: e.actor ? { id: e.actor.id, email: e.actor.email } : null,
      target_type: e.targetType,
      target_id: e.targetId,
      org_id: e.orgId,
      region: e.region,
      request_id: e.requestId,
      metadata: (e.metadata ?? {}) as Record<string, unknown>,
      redacted: false,
      created_at: e.createdAt.toISOString(),
    })),
    next_cursor: rows.length > f.limit && last ? encodeTimeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}
