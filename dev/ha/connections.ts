// How to reach an HA topology's databases: the app's, the owner's and the admin's URLs (the
// mothership's pair by target_session_attrs, one replica per region), and one node's.
import { ADMIN_ROLE, APP_ROLE, connectionUrl, OWNER_ROLE } from '../embedded-pg/roles';
import type { TopologyUrls } from '../embedded-pg/servers';
import { apiUrl } from './agents';
import { adminOn } from './leader-sql';
import { REST_API_USER, type HaNode } from './patroni-config';
import type { HaState } from './state';

export type Role = 'app' | 'owner' | 'admin';

const pgPort = (state: HaState, name: string) => state.nodes[name]!.pgPort;

/** One node, single host (what node-postgres parses). */
export function nodeUrl(state: HaState, name: string, as: Role): string {
  const [user, password] =
    as === 'app'
      ? [APP_ROLE, state.appPassword]
      : as === 'owner'
        ? [OWNER_ROLE, state.ownerPassword]
        : [ADMIN_ROLE, state.adminPassword];
  return connectionUrl(user, password, pgPort(state, name));
}

export function topologyUrls(nodes: HaNode[], state: HaState): TopologyUrls {
  const pair = nodes.filter((n) => n.candidate).map((n) => `127.0.0.1:${pgPort(state, n.name)}`);
  const multi = (user: string, password: string) =>
    `postgresql://${user}:${encodeURIComponent(password)}@${pair.join(',')}/meridian?target_session_attrs=read-write`;
  const replicas: Record<string, string> = {};
  const adminReplicas: Record<string, string> = {};
  for (const n of nodes.filter((x) => !x.candidate)) {
    replicas[n.site] = nodeUrl(state, n.name, 'app');
    adminReplicas[n.site] = nodeUrl(state, n.name, 'admin');
  }
  return {
    primary: multi(APP_ROLE, state.appPassword),
    ownerPrimary: multi(OWNER_ROLE, state.ownerPassword),
    adminPrimary: multi(ADMIN_ROLE, state.adminPassword),
    replicas,
    adminReplicas,
  };
}

/** What roles.ts needs: the passwords, and superuser queries on the leader (at `port`). */
export function primaryAccess(state: HaState, port: number) {
  return {
    state: {
      version: 1 as const,
      adminPassword: state.adminPassword,
      appPassword: state.appPassword,
      ownerPassword: state.ownerPassword,
      replicationPassword: state.replicationPassword,
      primary: { port },
      replicas: {},
    },
    admin: adminOn(port, state.adminPassword),
  };
}

/** What the app needs to show the cluster and ask for switchovers (DATABASE_HA_API_*). */
export function managerEnv(nodes: HaNode[], state: HaState): Record<string, string> {
  return {
    DATABASE_HA_API_URLS: nodes.map((n) => apiUrl(state, n.name)).join(','),
    DATABASE_HA_API_USER: REST_API_USER,
    DATABASE_HA_API_PASSWORD: state.restApiPassword,
  };
}
