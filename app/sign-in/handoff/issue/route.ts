// /sign-in/handoff/issue at a region's host: a one-time code for the global address
// (server/auth/handoff.ts).
import { serviceRoute } from '~/server/api/adapters/service-route';
import { handleIssue, handleIssuePost } from '~/server/auth/handoff';
import { env } from '~/server/env';
import { requestHost } from '~/server/net/request-origin';
import { hostRegion } from '~/server/region/host-region';

export const dynamic = 'force-dynamic';

// GET writes nothing (the page that POSTs); POST, from this origin only, makes the code.
const hereOf = (req: Request) => {
  const { label, wellFormed } = hostRegion(requestHost(req.headers), env().MERIDIAN_HOST);
  return {
    region: wellFormed ? label : env().MERIDIAN_GATEWAY_REGION === 'global' ? undefined : env().MERIDIAN_GATEWAY_REGION,
  };
};

export const GET = serviceRoute({ name: 'auth.handoff.issue' }, async (ctx, req) =>
  handleIssue(ctx.identity, req, hereOf(req)),
);

export const POST = serviceRoute({ name: 'auth.handoff.issue' }, async (ctx, req) =>
  handleIssuePost(ctx.identity, req, hereOf(req)),
);
