// /sign-in/handoff/start at the global address: on to a region's sign-in
// (server/directory/sign-in.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { startSignIn } from '~/server/directory/sign-in';
import { isGlobalAddress } from '~/server/directory/page';
import { AppError } from '~/server/errors';

export const dynamic = 'force-dynamic';

const start = serviceRoute({ name: 'auth.handoff.start', authenticate: false }, async (ctx, req) => {
  if (!isGlobalAddress(req.headers)) throw new AppError('not_found', 'sign in on this page: /sign-in');
  return startSignIn(req, ctx.req.setHeader);
});

export const GET = start;
export const POST = start;
