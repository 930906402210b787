// The organization's audit log as its members and viewers read it: every event, with only the
// details anyone in the organization may see. What only admins see elsewhere (emails of people
// invited or removed, operators' emails, sign-in addresses, webhook URLs, reasons typed by
// operators, identity-provider claims) stays in the admins' view and their export.
// docs/flows/audit-log.md
import { read } from '../db/access';
import type { DataRequest } from '../db/request-state';
import type { AuditView } from './audit-log';

/**
 * Metadata keys a member reads: an allowlist, so a key added to some event later is an admin's
 * until it is named here.
 */
export const MEMBER_METADATA: ReadonlySet<string> = new Set([
  // what was made or changed
  'name',
  'scopes',
  'global',
  'template',
  'node_count',
  'version',
  'default_region',
  'role',
  'from',
  'to',
  'before',
  'after',
  'slug',
  'step',
  'steps',
  'purge_after',
  'purge_after_was',
  'clusters_deleting',
  // the run and credentials it names (IDs, never secrets)
  'run_id',
  'credential_id',
  'revoked',
  // how, and by which key
  'via',
  'provider',
  'api_key',
  'prefix',
]);

/**
 * `event` with its metadata cut to MEMBER_METADATA, and its actor only when `members` (the
 * organization's people now) has them: a removed member's or an operator's email is an admin's to
 * read. `redacted` says whether anything was left out.
 */
export function memberView(event: AuditView, members: ReadonlySet<string>): AuditView {
  const metadata: Record<string, unknown> = {};
  let redacted = false;
  for (const [k, v] of Object.entries(event.metadata)) {
    if (MEMBER_METADATA.has(k)) metadata[k] = v;
    else redacted = true;
  }
  const actor = event.actor && members.has(event.actor.id) ? event.actor : null;
  return { ...event, actor, metadata, redacted: redacted || actor !== event.actor };
}

/** Which of `userIds` belong to `orgId` now. */
export async function currentMembers(req: DataRequest, orgId: string, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await read(req, (db) =>
    db.membership.findMany({ where: { orgId, userId: { in: [...new Set(userIds)] } }, select: { userId: true } }),
  );
  return new Set(rows.map((r) => r.userId));
}

/** Whether a member's `actor` filter names someone they may see: a current member (by email or ID). */
export async function actorVisible(req: DataRequest, orgId: string, actor: string): Promise<boolean> {
  const a = actor.trim();
  const row = await read(req, (db) =>
    db.membership.findFirst({
      where: { orgId, ...(a.includes('@') ? { user: { email: a.toLowerCase() } } : { userId: a }) },
      select: { userId: true },
    }),
  );
  return row !== null;
}
