// Who a verified ID token signs in: a member of the workspace (added on their first sign-in when
// their email's domain is allowed), or, through the platform's provider, an operator.
// docs/flows/single-sign-on.md#just-in-time-membership
import { readPrimary, writePrimary } from '../db/primary-reads';
import { recordAudit } from '../audit/audit';
import { view as memberView } from '../members/members';
import { emitWebhook } from '../webhooks/events';
import { changed } from '../auth/identity-cache';
import type { SessionSubject } from '../auth/session-cookie';
import { newId } from '../ids';
import type { SsoFailure } from '../../lib/sso-failures';
import type { SsoRole } from './roles';

/** A sign-in refused after the token checked out: the code the person is sent back with. */
export class SsoRefusal extends Error {
  constructor(
    readonly code: SsoFailure,
    message: string,
    readonly audit: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface VerifiedClaims {
  sub: string;
  email: string;
  name: string | null;
  /** The whole ID token payload, for the platform's group or role claim. */
  raw: Record<string, unknown>;
}

/**
 * The email an ID token vouches for, or a refusal: present and verified (`email_verified`, or
 * Entra ID's `xms_edov`, "the domain owner verified it").
 */
export function verifiedEmail(claims: Record<string, unknown>): { email: string; name: string | null } {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!/^[^@\s]{1,64}@[^@\s]{1,253}$/.test(email)) {
    throw new SsoRefusal('sso_email_unverified', 'the ID token carries no email address');
  }
  if (claims.email_verified !== true && claims.xms_edov !== true) {
    throw new SsoRefusal('sso_email_unverified', 'the identity provider did not verify this email', { email });
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : null;
  return { email, name };
}

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1);

const userSelect = { id: true, email: true, name: true, sessionVersion: true } as const;

/**
 * The member `claims` sign in to `org`: the existing member with that email, or (first sign-in)
 * a new account and membership with `defaultRole`. An email whose domain is not allowed is
 * refused; so is an existing account outside the organization (an admin adds it: an
 * organization's provider must not take over an account another organization or the platform
 * vouches for).
 */
export async function organizationMember(
  org: { id: string; allowedDomains: string[]; defaultRole: SsoRole },
  claims: VerifiedClaims,
  requestId: string | null,
): Promise<{ user: SessionSubject; joined: boolean }> {
  const domain = emailDomain(claims.email);
  if (!org.allowedDomains.includes(domain)) {
    throw new SsoRefusal('sso_domain_not_allowed', `${domain} is not one of this workspace's SSO domains`, { domain });
  }
  const existing = await readPrimary((db) =>
    db.user.findUnique({
      where: { email: claims.email },
      select: { ...userSelect, memberships: { where: { orgId: org.id }, select: { role: true } } },
    }),
  );
  if (existing) {
    if (existing.memberships.length === 0) {
      throw new SsoRefusal('sso_account_conflict', 'an account with this email exists outside this workspace', {
        user_id: existing.id,
      });
    }
    const { memberships: _m, ...user } = existing;
    return { user, joined: false };
  }
  // No password (null matches none): an account SSO makes signs in only through its provider.
  const passwordHash = null;
  const user = await writePrimary((db) =>
    db.$transaction(async (tx) => {
      const made = await tx.user.create({
        data: { id: newId('usr'), email: claims.email, name: claims.name ?? claims.email.split('@')[0]!, passwordHash },
        select: userSelect,
      });
      const joined = await tx.membership.create({
        data: { userId: made.id, orgId: org.id, role: org.defaultRole },
        include: { user: { select: { email: true, name: true } } },
      });
      await emitWebhook(tx, org.id, 'member.added', memberView(joined));
      await recordAudit(tx, {
        action: 'membership.add',
        targetType: 'user',
        targetId: made.id,
        orgId: org.id,
        actorId: made.id,
        requestId,
        metadata: { email: made.email, role: org.defaultRole, via: 'sso' },
      });
      return made;
    }),
  );
  changed([`user:${user.id}`, `org:${org.id}`]);
  return { user, joined: true };
}

/** Whether the platform's claim (a string, or a list of them) holds `value`. */
export function claimHolds(claims: Record<string, unknown>, claim: string, value: string): boolean {
  const v = claims[claim];
  return v === value || (Array.isArray(v) && v.includes(value));
}

/**
 * The operator the platform's provider signs in: its claim must name the operator value. An
 * existing account gets the platform role (audited); a new one is made with it.
 */
export async function platformOperator(
  platform: { claim: string; operatorValue: string },
  claims: VerifiedClaims,
  requestId: string | null,
): Promise<{ user: SessionSubject; orgId: string | null }> {
  if (!claimHolds(claims.raw, platform.claim, platform.operatorValue)) {
    throw new SsoRefusal('sso_not_operator', `the ${platform.claim} claim does not name ${platform.operatorValue}`, {
      email: claims.email,
    });
  }
  const passwordHash = null;
  const { user, granted } = await writePrimary((db) =>
    db.$transaction(async (tx) => {
      const found = await tx.user.findUnique({
        where: { email: claims.email },
        select: { ...userSelect, platformRole: true },
      });
      if (found && found.platformRole === 'operator') return { user: found, granted: false };
      const user = found
        ? await tx.user.update({ where: { id: found.id }, data: { platformRole: 'operator' }, select: userSelect })
        : await tx.user.create({
            data: {
              id: newId('usr'),
              email: claims.email,
              name: claims.name ?? claims.email.split('@')[0]!,
              passwordHash,
              platformRole: 'operator',
            },
            select: userSelect,
          });
      await recordAudit(tx, {
        action: 'sso.operator_grant',
        targetType: 'user',
        targetId: user.id,
        actorId: user.id,
        requestId,
        metadata: { email: user.email, claim: platform.claim, created: !found },
      });
      return { user, granted: true };
    }),
  );
  if (granted) changed([`user:${user.id}`]);
  const first = await readPrimary((db) =>
    db.membership.findFirst({
      where: { userId: user.id },
      orderBy: [{ role: 'asc' }, { createdAt: 'asc' }],
      select: { orgId: true },
    }),
  );
  const { platformRole: _p, ...subject } = user as typeof user & { platformRole?: string };
  return { user: subject, orgId: first?.orgId ?? null };
}
