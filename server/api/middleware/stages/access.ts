// Stage `access`: whether the route's audience (public, signed in, platform operator) includes
// the caller.
import { isOperator, type Identity } from '../../../auth/identity';
import { AppError } from '../../../errors';
import type { Access } from '../route-meta';
import type { Stage } from '../stage';

export function requireAccess(access: Access, identity: Identity): void {
  if (access === 'public') return;
  if (identity.kind === 'anonymous') throw new AppError('unauthenticated', 'sign in or send an API key');
  if (access === 'operator' && !isOperator(identity)) {
    throw new AppError('forbidden', 'this is an Atlas (platform operator) endpoint');
  }
}

export const access: Stage = {
  name: 'access',
  run: ({ ctx, meta }) => requireAccess(meta?.access ?? 'public', ctx.identity),
};
