// The region of the gateway a request arrived at: the host's `{region}.` label when it names a
// known region, else this deployment's MERIDIAN_GATEWAY_REGION (`global` at the global address).
import { env } from '../../env';
import { requestHost } from '../../net/request-origin';
import { hostRegion } from '../../region/host-region';
import type { RegionRegistry } from '../../region/registry';
import type { RequestMeta } from '../context';

export function subdomainLabel(req: RequestMeta): string | undefined {
  const h = hostRegion(requestHost(req.headers, req.url.host), env().MERIDIAN_HOST);
  return h.label && h.label !== 'global' ? h.label : undefined;
}

export function gatewayRegion(req: RequestMeta, registry: RegionRegistry): string {
  const label = subdomainLabel(req);
  return label && registry.has(label) ? label : env().MERIDIAN_GATEWAY_REGION;
}
