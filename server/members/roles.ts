// Roles in an organization (viewer ⊂ member ⊂ admin) and what each procedure declares about them:
// the one table the request middleware, the routers and the role suite read.
import { scopeGrants, type ApiKeyScope } from '../api-keys/format';
import type { Identity } from '../auth/identity';

export const ORG_ROLES = ['viewer', 'member', 'admin'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/**
 * Every procedure's decision about who in an organization may call it: the least role
 * (`viewer`, `member`, `admin`); `self` for what acts on the caller's own account only (their
 * settings, accepting an invitation sent to them); `public` for what needs no organization.
 */
export type RoleDecision = OrgRole | 'self' | 'public';

/** The API key scope that stands for each role (read ⊂ write ⊂ admin, as roles nest). */
export const ROLE_SCOPE: Record<OrgRole, ApiKeyScope> = { viewer: 'read', member: 'write', admin: 'admin' };

/** Whether `role` includes everything `needed` may do. */
export function roleAtLeast(role: OrgRole | null | undefined, needed: OrgRole): boolean {
  return role != null && ORG_ROLES.indexOf(role) >= ORG_ROLES.indexOf(needed);
}

/** The role a procedure without a decision stands for (queries read, mutations write, `admin` scope). */
export function defaultRole(scope: ApiKeyScope): OrgRole {
  return scope === 'admin' ? 'admin' : scope === 'write' ? 'member' : 'viewer';
}

/** Whether the caller acts with at least `role` in its organization: a person by their role, a key by its scope. */
export function actsAs(identity: Identity, role: OrgRole): boolean {
  if (identity.kind === 'session') return roleAtLeast(identity.orgRole, role);
  if (identity.kind === 'api_key') return scopeGrants(identity.scopes, ROLE_SCOPE[role]);
  return false;
}
