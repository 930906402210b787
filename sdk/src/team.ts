// The organization's people in the SDK: `client.members` and `client.invitations`.
import type { ClientCalls } from './calls.js';
import type { MemberRole } from './views.js';

type PageParams = { cursor?: string; limit?: number };

/** The organization's members: everyone lists them; admins (or an admin-scoped key) change them. */
export function membersApi({ api, unwrap, paginate }: ClientCalls) {
  const members = {
    list: (params: PageParams = {}) => unwrap(api.GET('/members', { params: { query: params } })),
    iterate: (params: { limit?: number } = {}) => paginate((cursor) => members.list({ ...params, cursor })),
    /** `409 last_admin` for the organization's last admin. */
    setRole: (userId: string, role: MemberRole) =>
      unwrap(api.PATCH('/members/{user_id}', { params: { path: { user_id: userId } }, body: { role } })),
    /** Ends their sessions and revokes the API keys they created, at once. */
    remove: (userId: string) => unwrap(api.DELETE('/members/{user_id}', { params: { path: { user_id: userId } } })),
  };
  return members;
}

/** Invitations (admins): the link in `create`'s and `resend`'s answer is shown once. */
export function invitationsApi({ api, unwrap }: ClientCalls) {
  return {
    list: (params: PageParams = {}) => unwrap(api.GET('/invitations', { params: { query: params } })),
    create: (input: { email: string; role: MemberRole }) => unwrap(api.POST('/invitations', { body: input })),
    resend: (id: string) =>
      unwrap(api.POST('/invitations/{id}/resend', { params: { path: { id } }, body: {} as never })),
    revoke: (id: string) => unwrap(api.DELETE('/invitations/{id}', { params: { path: { id } } })),
  };
}
