// /sign-in/handoff/finish at the global address: the session handed over (server/auth/handoff.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { handleFinish } from '~/server/auth/handoff';
import { isGlobalAddress } from '~/server/directory/page';
import { AppError } from '~/server/errors';
import { clientAddress } from '~/server/net/client-address';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'auth.handoff.finish', authenticate: false }, async (_ctx, req) => {
  if (!isGlobalAddress(req.headers)) throw new AppError('not_found', 'a hand-over ends at the global address');
  return handleFinish(req, clientAddress(req.headers));
});
