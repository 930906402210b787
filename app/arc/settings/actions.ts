'use server';
// Server actions of the settings page: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const updateSettings = serverAction(
  (api, input: { theme?: 'system' | 'light' | 'dark'; default_region?: string | null }) => api.me.updateSettings(input),
);
