// /sign-in/handoff/issue at a region's host: a one-time code for the global address (server/auth/handoff.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { handleIssue } from '~/server/auth/handoff';
import { env } from '~/server/env';
import { requestHost } from '~/server/net/host';
import { hostRegion } from '~/server/region/host';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'auth.handoff.issue' }, async (ctx, req) => {
  const { label, wellFormed } = hostRegion(requestHost(req.headers), env().MERIDIAN_HOST);
  const region = wellFormed
    ? label
    : env().MERIDIAN_GATEWAY_REGION === 'global'
      ? undefined
      : env().MERIDIAN_GATEWAY_REGION;
  return handleIssue(ctx.identity, req, { region });
});
