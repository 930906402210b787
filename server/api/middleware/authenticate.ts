// Who is calling. `Authorization: Bearer mk_…` is an API key; browser sessions are read by the
// identity layer (server/auth). Nothing here trusts what a client says about its permissions.
import { authenticateApiKey, findApiKey } from '../../api-keys/authenticate';
import { recordKeyUse } from '../../api-keys/usage';
import { read } from '../../db/access';
import { primary } from '../../db/client';
import { primaryHealth } from '../../db/health';
import { ANONYMOUS, isOperator, type Identity } from '../../auth/identity';
import { AppError } from '../../errors';
import type { Context } from '../context';
import { sessionIdentity } from './session';

export type Access = 'public' | 'authenticated' | 'operator';

export async function authenticate(ctx: Context): Promise<Identity> {
  const authorization = ctx.req.headers.get('authorization');
  if (authorization) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!m) throw new AppError('unauthenticated', 'the Authorization header must be "Bearer <API key>"');
    // Keys are read like everything else (the gateway's replica), falling back to the primary
    // for a key too new to have replicated yet.
    const identity = await authenticateApiKey(m[1]!, async (prefix) => {
      const row = await read(ctx, (db) => findApiKey(db, prefix));
      if (row || !primaryHealth().up || ctx.consistency.servedBy === 'primary') return row;
      return findApiKey(primary(), prefix);
    });
    recordKeyUse(identity.keyId);
    return identity;
  }
  return (await sessionIdentity(ctx)) ?? ANONYMOUS;
}

/** Runs before region resolution, so a refused caller costs no routing or database work. */
export function requireAccess(access: Access, identity: Identity): void {
  if (access === 'public') return;
  if (identity.kind === 'anonymous') throw new AppError('unauthenticated', 'sign in or send an API key');
  if (access === 'operator' && !isOperator(identity)) {
    throw new AppError('forbidden', 'this is an Atlas (platform operator) endpoint');
  }
}
