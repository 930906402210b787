'use server';
// Server actions of the notifications page: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const markNotificationRead = serverAction((api, input: { id: string }) => api.notifications.markRead(input));

export const markAllNotificationsRead = serverAction((api, _input: Record<string, never>) =>
  api.notifications.markAllRead(),
);
