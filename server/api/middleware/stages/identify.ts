// Stage `identify`: who is calling (a Bearer API key, else the session cookie); the later stages
// decide from what this one verified, never from what a client says of its permissions.
import { authenticateApiKeyFor } from '../../../api-keys/authenticate';
import { recordKeyUse } from '../../../api-keys/usage';
import { ANONYMOUS, orgOf, type Identity } from '../../../auth/identity';
import { principalOf } from '../../../db/write-positions';
import { AppError } from '../../../errors';
import { addressBucket, clientAddress } from '../../../net/client-address';
import type { Context } from '../../context';
import { sessionIdentity } from '../session';
import type { Stage } from '../stage';

export async function callerIdentity(ctx: Context): Promise<Identity> {
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

export const identify: Stage = {
  name: 'identify',
  async run({ ctx, meta }) {
    // A service route with its own credential (e.g. /metrics' token) stays anonymous here.
    if (meta?.authenticate !== false) ctx.identity = await callerIdentity(ctx);
    ctx.org = orgOf(ctx.identity);
    ctx.principal = principalOf(ctx.identity);
  },
};
