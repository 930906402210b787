'use server';
// Server actions of Atlas' organization pages: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const setOrganizationRegions = serverAction(
  (api, input: { id: string; allowed_regions: string[]; default_region: string | null }) =>
    api.atlas.organizations.updateRegions(input),
);
