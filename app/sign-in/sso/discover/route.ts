// GET /sign-in/sso/discover?email= at a region's host: the workspace whose single sign-on takes
// that email's domain, for the sign-in page's "Continue with SSO" (server/sso/discovery.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { sameOriginPath } from '~/server/net/redirect';
import { discoverSso } from '~/server/sso/discovery';
import { ssoHere } from '../here';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'auth.sso.discover', authenticate: false }, async (ctx, req) => {
  const here = ssoHere(ctx, req);
  const url = new URL(req.url);
  const next = sameOriginPath(url.searchParams.get('next') ?? undefined, url.origin, '/arc');
  const found = await discoverSso(url.searchParams.get('email'), next, here.address);
  return Response.json(found ?? { workspace: null }, { headers: { 'Cache-Control': 'no-store' } });
});
