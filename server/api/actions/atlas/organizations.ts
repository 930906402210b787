'use server';
// Server actions over atlas.organizations (an organization's regions): each runs its procedure
// through the request middleware.
import { serverAction } from '../../adapters/action';

export const setOrganizationRegions = serverAction(
  (api, input: { id: string; allowed_regions: string[]; default_region: string | null }) =>
    api.atlas.organizations.updateRegions(input),
);
