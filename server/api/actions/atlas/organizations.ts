'use server';
// Server actions over atlas.organizations (create, regions, suspension, offboarding): each runs
// its procedure through the request middleware.
import { serverAction } from '../../adapters/action';

export const setOrganizationRegions = serverAction(
  (api, input: { id: string; allowed_regions: string[]; default_region: string | null }) =>
    api.atlas.organizations.updateRegions(input),
);

export const createOrganization = serverAction(
  (
    api,
    input: {
      slug: string;
      name: string;
      home_region: string;
      allowed_regions?: string[];
      admin_email: string;
      admin_name?: string;
    },
  ) => api.atlas.organizations.create(input),
);

export const suspendOrganization = serverAction((api, input: { id: string; reason: string }) =>
  api.atlas.organizations.suspend(input),
);

export const reactivateOrganization = serverAction((api, input: { id: string; reason: string }) =>
  api.atlas.organizations.reactivate(input),
);

export const offboardOrganization = serverAction((api, input: { id: string; confirm: string }) =>
  api.atlas.organizations.offboard(input),
);

export const cancelOrganizationOffboarding = serverAction((api, input: { id: string }) =>
  api.atlas.organizations.cancelOffboard(input),
);
