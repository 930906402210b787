'use server';
// Server actions over `me` (the account's settings): each runs its procedure through the request middleware.
import { serverAction } from '../adapters/action';

export const updateSettings = serverAction(
  (api, input: { theme?: 'system' | 'light' | 'dark'; default_region?: string | null }) => api.me.updateSettings(input),
);
