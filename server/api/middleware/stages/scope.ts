// Stage `scope`: what the caller may do in its organization. An API key by its scopes (read ⊂
// write ⊂ admin), a person by their role (viewer ⊂ member ⊂ admin), each procedure by the role
// it declares (server/members/roles.ts).
import type { Identity } from '../../../auth/identity';
import { scopeGrants, type ApiKeyScope } from '../../../api-keys/format';
import { AppError } from '../../../errors';
import { defaultRole, ROLE_SCOPE, roleAtLeast, type RoleDecision } from '../../../members/roles';
import type { Stage } from '../stage';

const ROLE_WORDS = {
  viewer: 'members of the organization',
  member: 'members (not viewers)',
  admin: 'organization admins',
};

/** The scope an API key needs: the declared one, else the role's, else by the procedure's type. */
export function neededScope(type: string, scope?: ApiKeyScope, role?: RoleDecision): ApiKeyScope {
  if (scope) return scope;
  if (role && role !== 'self' && role !== 'public') return ROLE_SCOPE[role];
  return type === 'query' ? 'read' : 'write';
}

export function requireScope(needed: ApiKeyScope, identity: Identity, role?: RoleDecision): void {
  if (identity.kind === 'api_key' && !scopeGrants(identity.scopes, needed)) {
    throw new AppError('forbidden', `this API key lacks the ${needed} scope (it has: ${identity.scopes.join(', ')})`);
  }
  // What acts on the caller's own account, or needs no organization, asks no role of them.
  if (identity.kind !== 'session' || !identity.org || role === 'self' || role === 'public') return;
  const required = role ?? defaultRole(needed);
  if (!roleAtLeast(identity.orgRole, required)) {
    throw new AppError(
      'forbidden',
      `only ${ROLE_WORDS[required]} may do this (your role in ${identity.org.slug}: ${identity.orgRole ?? 'none'})`,
      { extra: { required_role: required } },
    );
  }
}

export const scope: Stage = {
  name: 'scope',
  run: ({ ctx, meta, type }) => requireScope(neededScope(type, meta?.scope, meta?.role), ctx.identity, meta?.role),
};
