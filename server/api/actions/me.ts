'use server';
// Server actions over `me` (the account's settings and sessions): each runs its procedure through the request middleware.
import { serverAction } from '../adapters/action';

export const updateSettings = serverAction(
  (api, input: { theme?: 'system' | 'light' | 'dark'; default_region?: string | null }) => api.me.updateSettings(input),
);

export const endSession = serverAction((api, input: { id: string }) => api.me.endSession(input));

export const signOutEverywhere = serverAction((api, _input: Record<string, never>) => api.me.signOutEverywhere({}));
