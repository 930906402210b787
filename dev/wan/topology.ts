// Where each process's database connections go over the WAN: the primary sits at the mothership,
// each region's replica at its region; a process at one site dials the others through their link's
// relays (docs/operations.md#wan-mode). For `npm start -- --wan`, tests and benchmarks.
import type { HaWanSites } from '../ha/agents';
import type { Wan } from './wan';

/** The databases as the local stack serves them, direct (no WAN). */
export interface DirectDatabases {
  primary: string;
  /** Replica URL per region. */
  replicas: Record<string, string>;
  /** `--ha`: the HA manager's REST addresses (DATABASE_HA_API_URLS), at the mothership. */
  haApiUrls?: string;
}

/**
 * DATABASE_URL and DATABASE_REPLICA_URLS for a process at `site` (a region code; the global
 * gateway's site is the mothership): the primary through the site↔mothership link, every other
 * region's replica through the site↔region link, its own region's replica direct.
 */
export async function siteEnv(
  wan: Wan,
  site: string,
  dbs: DirectDatabases,
): Promise<{ DATABASE_URL: string; DATABASE_REPLICA_URLS: string; DATABASE_HA_API_URLS?: string }> {
  const { mothership } = wan.profile;
  const DATABASE_URL = await wan.rewriteUrl(dbs.primary, site, mothership);
  const replicas = await Promise.all(
    Object.entries(dbs.replicas).map(async ([region, url]) => `${region}=${await wan.rewriteUrl(url, site, region)}`),
  );
  const out = { DATABASE_URL, DATABASE_REPLICA_URLS: replicas.join(',') };
  if (!dbs.haApiUrls) return out;
  const api = await Promise.all(
    dbs.haApiUrls.split(',').map(async (url) => {
      const u = new URL(url);
      const port = Number(u.port || 80);
      const routed = await wan.route(site, mothership, { host: u.hostname, port });
      if (routed !== port) [u.hostname, u.port] = ['127.0.0.1', String(routed)];
      return u.toString().replace(/\/$/, '');
    }),
  );
  return { ...out, DATABASE_HA_API_URLS: api.join(',') };
}

/**
 * EmbeddedTopology's `primaryPortFor`: the port a region's replica dials to stream WAL, through its
 * region↔mothership link (the mothership's own replica dials the primary direct).
 */
export function replicaPrimaryPort(wan: Wan): (region: string, primaryPort: number) => Promise<number> {
  return (region, primaryPort) => wan.route(region, wan.profile.mothership, { host: '127.0.0.1', port: primaryPort });
}

/**
 * HaTopology's `sites`: a region's database node dials every other node from a loopback address of
 * its own (127.0.0.2 for the second site, …; PGHOSTADDR), where a relay on the region↔mothership
 * link listens on each mothership node's port. The replica's stream then crosses the link whichever
 * node leads, with nothing in Patroni's configuration to rewrite on a failover.
 */
export function haSites(wan: Wan): HaWanSites {
  const { mothership, sites } = wan.profile;
  const address = (site: string) => {
    const i = sites.indexOf(site);
    return site === mothership || i < 0 ? undefined : `127.0.0.${2 + i}`;
  };
  return {
    address,
    expose: async (site, port) => {
      const at = address(site);
      if (at) await wan.routeAt(site, mothership, at, { host: '127.0.0.1', port });
    },
  };
}
