// Where a single sign-on request came: the region of its host (never the global address), the
// client's address and the request's ID (server/sso/flow.ts).
import type { Context } from '~/server/api/context';
import { isGlobalAddress } from '~/server/directory/page';
import { env } from '~/server/env';
import { AppError } from '~/server/errors';
import { clientAddress } from '~/server/net/client-address';
import { requestHost } from '~/server/net/request-origin';
import { hostRegion } from '~/server/region/host-region';
import type { Here } from '~/server/sso/flow';

export function ssoHere(ctx: Context, req: Request): Here {
  const { label, wellFormed } = hostRegion(requestHost(req.headers), env().MERIDIAN_HOST);
  const gateway = env().MERIDIAN_GATEWAY_REGION;
  const region = wellFormed ? label : gateway === 'global' ? undefined : gateway;
  // Like passwords, no sign-in is sent to an identity provider from the global address.
  if (!region || isGlobalAddress(req.headers)) {
    throw new AppError('not_found', 'single sign-on starts at your workspace’s region: /sign-in');
  }
  return { region, address: clientAddress(req.headers), requestId: ctx.requestId };
}
