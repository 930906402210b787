// The signed-in user's notifications in the SDK (`client.notifications`).
import type { ClientCalls } from './calls.js';

export function notificationsApi({ api, unwrap }: ClientCalls) {
  return {
    list: (params: { unread?: boolean; cursor?: string; limit?: number } = {}) => {
      const { unread, ...rest } = params;
      const query = {
        ...rest,
        ...(unread === undefined ? {} : { unread: unread ? ('true' as const) : ('false' as const) }),
      };
      return unwrap(api.GET('/notifications', { params: { query } }));
    },
    read: (id: string) => unwrap(api.PATCH('/notifications/{id}/read', { params: { path: { id } } })),
    readAll: () => unwrap(api.POST('/notifications/read-all', {})),
  };
}
