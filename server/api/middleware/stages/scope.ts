// Stage `scope`: what the caller's credential allows (an API key's read ⊂ write ⊂ admin; for a
// person, `admin` means an organization admin).
import type { Identity } from '../../../auth/identity';
import { scopeGrants, type ApiKeyScope } from '../../../api-keys/format';
import { AppError } from '../../../errors';
import type { Stage } from '../stage';

export function requireScope(needed: ApiKeyScope, identity: Identity): void {
  if (identity.kind === 'api_key' && !scopeGrants(identity.scopes, needed)) {
    throw new AppError('forbidden', `this API key lacks the ${needed} scope (it has: ${identity.scopes.join(', ')})`);
  }
  if (identity.kind === 'session' && needed === 'admin' && identity.org && identity.orgRole !== 'admin') {
    throw new AppError('forbidden', 'only organization admins may do this');
  }
}

export const scope: Stage = {
  name: 'scope',
  run: ({ ctx, meta, type }) => requireScope(meta?.scope ?? (type === 'query' ? 'read' : 'write'), ctx.identity),
};
