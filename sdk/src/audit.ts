// The organization's audit log in the SDK (`client.audit`).
import type { ClientCalls } from './calls.js';
import type { paths } from './generated/openapi.js';
import type { Query } from './views.js';

/** Newest first; `export` pages of up to 1,000 (admins). */
export function auditApi({ api, unwrap, paginate }: ClientCalls) {
  const list = (query: Query<paths['/audit']['get']> = {}) => unwrap(api.GET('/audit', { params: { query } }));
  return {
    list,
    iterate: (query: Omit<Query<paths['/audit']['get']>, 'cursor'> = {}) =>
      paginate((cursor) => list({ ...query, cursor })),
    export: (query: Omit<Query<paths['/audit/export']['get']>, 'cursor'> = {}) =>
      paginate((cursor) => unwrap(api.GET('/audit/export', { params: { query: { ...query, cursor } } }))),
  };
}
