'use server';
// Server actions of Atlas: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const setRegionStatus = serverAction(
  (api, input: { code: string; status: 'active' | 'draining' | 'down'; reason: string }) =>
    api.atlas.regions.update(input),
);
