// The organization's audit log as its members and viewers read it: every event, with only the
// details anyone in the organization may see. What only admins see elsewhere (emails of people
// invited or removed, sign-in addresses, webhook URLs, reasons typed by operators, identity
// provider claims) stays in the admins' view and their export. docs/flows/audit-log.md
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

/** `event` with its metadata cut to MEMBER_METADATA; `redacted` says whether anything was left out. */
export function memberView(event: AuditView): AuditView {
  const metadata: Record<string, unknown> = {};
  let redacted = false;
  for (const [k, v] of Object.entries(event.metadata)) {
    if (MEMBER_METADATA.has(k)) metadata[k] = v;
    else redacted = true;
  }
  return { ...event, metadata, redacted };
}
