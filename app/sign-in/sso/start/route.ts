// /sign-in/sso/start at a region's host: on to the workspace's (or the platform's) identity
// provider (server/sso/start.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { readBodyText } from '~/server/net/body';
import { DIRECTORY_MAX_BODY_BYTES } from '~/server/net/body-limits';
import { startSso } from '~/server/sso/start';
import { ssoHere } from '../here';

export const dynamic = 'force-dynamic';

const start = serviceRoute({ name: 'auth.sso.start', authenticate: false }, async (ctx, req) => {
  const here = ssoHere(ctx, req);
  const form =
    req.method === 'POST'
      ? new URLSearchParams(await readBodyText(req, { limit: DIRECTORY_MAX_BODY_BYTES }))
      : new URL(req.url).searchParams;
  return startSso(req, form, here);
});

export const GET = start;
export const POST = start;
