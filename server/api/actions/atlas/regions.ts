'use server';
// Server actions over atlas.regions (a region's status): each runs its procedure through the request middleware.
import { serverAction } from '../../adapters/action';

export const setRegionStatus = serverAction(
  (api, input: { code: string; status: 'active' | 'draining' | 'down'; reason: string }) =>
    api.atlas.regions.update(input),
);
