// The headers every answer carries, success or error: X-Request-Id, X-Region, X-Region-Source
// (the gateway's own region and `gateway` until the request has entered its region).
import type { Context } from '../context';

export function stampRequestHeaders(ctx: Context): void {
  ctx.req.setHeader('X-Request-Id', ctx.requestId);
  ctx.req.setHeader('X-Region', ctx.region?.region ?? ctx.gatewayRegion);
  ctx.req.setHeader('X-Region-Source', ctx.region?.source ?? 'gateway');
}
