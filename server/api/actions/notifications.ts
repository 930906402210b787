'use server';
// Server actions over notifications (mark read): each runs its procedure through the request middleware.
import { serverAction } from '../adapters/action';

export const markNotificationRead = serverAction((api, input: { id: string }) => api.notifications.markRead(input));

export const markAllNotificationsRead = serverAction((api, _input: Record<string, never>) =>
  api.notifications.markAllRead(),
);
