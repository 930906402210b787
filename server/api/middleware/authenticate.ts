// Who is calling. `Authorization: Bearer mk_…` is an API key; browser sessions are read by the
// identity layer (server/auth). Nothing here trusts what a client says about its permissions.
import { authenticateApiKeyFor } from '../../api-keys/authenticate';
import { scopeGrants, type ApiKeyScope } from '../../api-keys/format';
import { recordKeyUse } from '../../api-keys/usage';
import { ANONYMOUS, isOperator, type Identity } from '../../auth/identity';
import { AppError } from '../../errors';
import { addressBucket, clientAddress } from '../../net/client-address';
import type { Context } from '../context';
import { sessionIdentity } from './session';

export type Access = 'public' | 'authenticated' | 'operator';

export async function authenticate(ctx: Context): Promise<Identity> {
  const authorization = ctx.req.headers.get('authorization');
  if (authorization) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!m) throw new AppError('unauthenticated', 'the Authorization header must be "Bearer <API key>"');
    const identity = await authenticateApiKeyFor(ctx, m[1]!, addressBucket(clientAddress(ctx.req.headers)));
    recordKeyUse(identity.keyId);
    return identity;
  }
  return (await sessionIdentity(ctx)) ?? ANONYMOUS;
}

/**
 * What the caller's credential allows: an API key's scopes (read ⊂ write ⊂ admin); for a person,
 * `admin` means an organization admin. Runs before region resolution, like requireAccess.
 */
export function requireScope(needed: ApiKeyScope, identity: Identity): void {
  if (identity.kind === 'api_key' && !scopeGrants(identity.scopes, needed)) {
    throw new AppError('forbidden', `this API key lacks the ${needed} scope (it has: ${identity.scopes.join(', ')})`);
  }
  if (identity.kind === 'session' && needed === 'admin' && identity.org && identity.orgRole !== 'admin') {
    throw new AppError('forbidden', 'only organization admins may do this');
  }
}

/** Runs before region resolution, so a refused caller costs no routing or database work. */
export function requireAccess(access: Access, identity: Identity): void {
  if (access === 'public') return;
  if (identity.kind === 'anonymous') throw new AppError('unauthenticated', 'sign in or send an API key');
  if (access === 'operator' && !isOperator(identity)) {
    throw new AppError('forbidden', 'this is an Atlas (platform operator) endpoint');
  }
}
