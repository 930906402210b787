// Hand-written SQL of invitations (invitations.ts): the create and the revoke, each one statement
// with its audit event.
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

export interface CreateInvitationRow {
  /** The email is a member's already (nothing written). */
  member: boolean;
  /** The email's open invitation that has not expired (nothing written). */
  pending: string | null;
  /** The organization's name, for the mail. */
  orgName: string | null;
  /** The new invitation; null when nothing was inserted (a member, a pending one, a racing create). */
  created: InvitationRow | null;
}

/**
 * Invites an email with a role, with its `invitation.create` event (auditParam $10), unless the
 * email is a member's or has an open invitation that has not expired; an expired one is revoked to
 * make way (one open invitation per email: `invitations_open_email_key`, so a create racing another
 * for the same email inserts nothing). The `invitations_cap` trigger refuses it past the
 * organization's cap ('MLIM1'). $1 org, $2 ID, $3 email (lower case), $4 role, $5 the link's
 * prefix, $6 its secret's hash, $7 the inviting admin (null: an API key), $8 expiry, $9 now.
 */
export const createInvitationStatement = statement<
  CreateInvitationRow,
  [
    orgId: string,
    id: string,
    email: string,
    role: OrgRole,
    prefix: string,
    secretHash: string,
    invitedById: string | null,
    expiresAt: Date,
    at: Date,
    audit: string,
  ]
>(
  'invitations.create',
  `WITH org AS (
    SELECT id, name FROM organizations WHERE id = $1::text
  ), member AS (
    SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = $1::text AND u.email = $3::text
  ), open AS (
    SELECT id, expires_at FROM invitations
     WHERE org_id = $1::text AND email = $3::text AND accepted_at IS NULL AND revoked_at IS NULL
    FOR UPDATE
  ), pending AS (
    SELECT id FROM open WHERE expires_at > $9::timestamptz
  ), lapsed AS (
    UPDATE invitations SET revoked_at = $9::timestamptz, updated_at = $9::timestamptz
     WHERE id IN (SELECT id FROM open WHERE expires_at <= $9::timestamptz) AND NOT EXISTS (SELECT 1 FROM member)
    RETURNING id
  ), created AS (
    INSERT INTO invitations (id, org_id, email, role, prefix, secret_hash, invited_by_id, expires_at, created_at, updated_at)
    SELECT $2::text, o.id, $3::text, $4::text::"MembershipRole", $5::text, $6::text, $7::text, $8::timestamptz,
           $9::timestamptz, $9::timestamptz
      FROM org o
     WHERE NOT EXISTS (SELECT 1 FROM member) AND NOT EXISTS (SELECT 1 FROM pending)
       AND (SELECT count(*) FROM lapsed) >= 0 -- the expired one first: it makes way in the index
    ON CONFLICT (org_id, email) WHERE accepted_at IS NULL AND revoked_at IS NULL DO NOTHING
    RETURNING id, email, role::text AS role, created_at, expires_at
  ), ${auditCte('audit', 'created', 10, 9)}
  SELECT EXISTS (SELECT 1 FROM member) AS member,
         (SELECT id FROM pending) AS pending,
         (SELECT name FROM org) AS org_name,
         (SELECT row_to_json(c) FROM created c) AS created,
         (SELECT email FROM users WHERE id = $7::text) AS invited_by,
         (SELECT count(*) FROM audit)::int AS events`,
  (r) => {
    const c = r.created as { id: string; email: string; role: OrgRole; created_at: string; expires_at: string } | null;
    return {
      member: r.member === true,
      pending: (r.pending as string | null) ?? null,
      orgName: (r.org_name as string | null) ?? null,
      created: c
        ? {
            id: c.id,
            email: c.email,
            role: c.role,
            createdAt: new Date(c.created_at),
            expiresAt: new Date(c.expires_at),
            sentAt: null,
            acceptedAt: null,
            revokedAt: null,
            invitedBy: r.invited_by ? { email: r.invited_by as string } : null,
          }
        : null,
    };
  },
);
