// Workspace moves at the door (server/moves). Two checks on what the identity already carries
// (its organization, loaded with the key or session and dropped by NOTIFY when it changes), so
// neither costs a query:
// - read-only: while a move holds the organization (`status = moving`) every mutation, on every
//   door, answers 503 workspace_moving with Retry-After; reads go on;
// - home gateway: once a workspace has moved, a browser session at another region's gateway is
//   over there: 421 wrong_region naming the home region and its base_url (pages send the person to
//   that region's sign-in). API keys carry their own region and are refused in authenticate.
import type { Identity } from '../../auth/identity';
import { AppError } from '../../errors';
import type { RegionRegistry } from '../../region/registry';

export const MOVING_RETRY_AFTER_SECONDS = 120;

export function assertWorkspaceWritable(identity: Identity): void {
  if (identity.kind === 'anonymous' || identity.org?.status !== 'moving') return;
  throw new AppError(
    'workspace_moving',
    `the workspace ${identity.org.slug} is moving to another region: it is read-only for a few minutes`,
    { retryAfter: MOVING_RETRY_AFTER_SECONDS },
  );
}

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
