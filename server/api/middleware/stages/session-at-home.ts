// Stage `sessionAtHome`: a browser session at a region its workspace moved away from is 421
// wrong_region naming the home and its base_url. No query (docs/flows/moves.md).
import type { Identity } from '../../../auth/identity';
import { AppError } from '../../../errors';
import type { RegionRegistry } from '../../../region/registry';
import type { Stage } from '../stage';

export function assertSessionAtHome(identity: Identity, gatewayRegion: string, registry: RegionRegistry): void {
  if (identity.kind !== 'session' || !identity.org?.homeRegion) return;
  const home = identity.org.homeRegion;
  if (gatewayRegion === 'global' || gatewayRegion === home || !registry.has(gatewayRegion)) return;
  throw new AppError('wrong_region', `the workspace ${identity.org.slug} now lives in ${home}: sign in there`, {
    extra: {
      region: home,
      workspace: identity.org.slug,
      ...(registry.get(home) ? { base_url: registry.get(home)!.baseUrl } : {}),
    },
    headers: { 'Cache-Control': 'no-store' },
  });
}

export const sessionAtHome: Stage = {
  name: 'sessionAtHome',
  run({ ctx, meta, registry }) {
    // Public routes (the page shell's ping, health) answer whoever asks.
    if ((meta?.access ?? 'public') !== 'public') assertSessionAtHome(ctx.identity, ctx.gatewayRegion, registry);
  },
};
