'use server';
// Server actions over the caller's organization (its admin's offboarding, and the cancel): each
// runs its procedure through the request middleware.
import { serverAction } from '../adapters/action';

export const offboardOwnOrganization = serverAction((api, input: { confirm: string }) =>
  api.organization.offboard(input),
);

export const cancelOwnOffboarding = serverAction((api, _input: Record<string, never>) =>
  api.organization.cancelOffboard({}),
);
