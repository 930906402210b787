// /sign-in/sso/callback at a region's host: the identity provider's answer, checked, and the
// session (server/sso/callback.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { ssoCallback } from '~/server/sso/callback';
import { ssoHere } from '../here';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'auth.sso.callback', authenticate: false }, async (ctx, req) =>
  ssoCallback(req, ssoHere(ctx, req)),
);
