// Atlas in the SDK (`client.atlas`): platform operators only; a customer's key gets 403 forbidden.
import type { ClientCalls } from './calls.js';
import type { paths } from './generated/openapi.js';
import type { CreatedOrganization, CreateOrganizationInput, Offboarding, Query } from './views.js';

type ServersQuery = Query<paths['/atlas/infrastructure/servers']['get']>;
type OrganizationsQuery = Query<paths['/atlas/organizations']['get']>;

export function atlasApi({ api, unwrap, paginate }: ClientCalls) {
  const servers = {
    list: (query: ServersQuery = {}) => unwrap(api.GET('/atlas/infrastructure/servers', { params: { query } })),
    iterate: (query: Omit<ServersQuery, 'cursor'> = {}) => paginate((cursor) => servers.list({ ...query, cursor })),
  };
  const organizations = {
    list: (query: OrganizationsQuery = {}) => unwrap(api.GET('/atlas/organizations', { params: { query } })),
    iterate: (query: Omit<OrganizationsQuery, 'cursor'> = {}) =>
      paginate((cursor) => organizations.list({ ...query, cursor })),
    get: (id: string) => unwrap(api.GET('/atlas/organizations/{id}', { params: { path: { id } } })),
    /** Creates one; a new first admin's one-time `setup_link` is in the answer, and nowhere else. */
    create: (body: CreateOrganizationInput): Promise<CreatedOrganization> =>
      unwrap(api.POST('/atlas/organizations', { body })),
    suspend: (id: string, reason: string) =>
      unwrap(api.POST('/atlas/organizations/{id}/suspend', { params: { path: { id } }, body: { reason } })),
    reactivate: (id: string, reason: string) =>
      unwrap(api.POST('/atlas/organizations/{id}/reactivate', { params: { path: { id } }, body: { reason } })),
    /** `confirm` must be the organization's slug. */
    offboard: (id: string, confirm: string): Promise<Offboarding> =>
      unwrap(api.POST('/atlas/organizations/{id}/offboard', { params: { path: { id } }, body: { confirm } })),
    cancelOffboard: (id: string): Promise<Offboarding> =>
      unwrap(api.POST('/atlas/organizations/{id}/cancel-offboard', { params: { path: { id } } })),
  };
  return {
    servers,
    regions: {
      list: () => unwrap(api.GET('/atlas/regions', { params: { query: {} } })),
    },
    /** The database cluster as its HA manager sees it, and a planned switchover (audited). */
    database: {
      get: () => unwrap(api.GET('/atlas/database')),
      switchover: (body: { reason: string; candidate?: string }) =>
        unwrap(api.POST('/atlas/database/switchover', { body })),
    },
    organizations,
  };
}
