// Hand-written SQL of invitations (invitations.ts): the revoke, one statement with its audit event.
import { auditCte } from '../audit/audit-cte';
import { statement } from '../db/sql';
import type { OrgRole } from './roles';

/** An invitation as invitations.ts shows it (with the inviting admin's email). */
export interface InvitationRow {
  id: string;
  email: string;
  role: OrgRole;
  createdAt: Date;
  expiresAt: Date;
  sentAt: Date | null;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  invitedBy: { email: string } | null;
}

/**
 * Revokes an open (not accepted, not revoked) invitation of the organization, with its
 * `invitation.revoke` event (auditParam $4, the email and role added from the row): no row when
 * there is none. $1 org, $2 invitation, $3 now.
 */
export const revokeInvitationStatement = statement<InvitationRow, [orgId: string, id: string, at: Date, audit: string]>(
  'invitations.revoke',
  `WITH revoked AS (
    UPDATE invitations SET revoked_at = $3::timestamptz, updated_at = $3::timestamptz
    WHERE id = $2::text AND org_id = $1::text AND accepted_at IS NULL AND revoked_at IS NULL
    RETURNING id, email, role::text AS role, created_at, expires_at, sent_at, revoked_at, invited_by_id
  ), ${auditCte('audit', 'revoked', 4, 3, {
    metadata: `jsonb_build_object('email', revoked.email, 'role', revoked.role)`,
  })}
  SELECT r.id, r.email, r.role, r.created_at, r.expires_at, r.sent_at, r.revoked_at,
         (SELECT u.email FROM users u WHERE u.id = r.invited_by_id) AS invited_by,
         (SELECT count(*) FROM audit)::int AS events
    FROM revoked r`,
  (r) => ({
    id: r.id as string,
    email: r.email as string,
    role: r.role as OrgRole,
    createdAt: r.created_at as Date,
    expiresAt: r.expires_at as Date,
    sentAt: (r.sent_at as Date | null) ?? null,
    acceptedAt: null,
    revokedAt: r.revoked_at as Date,
    invitedBy: r.invited_by ? { email: r.invited_by as string } : null,
  }),
);
