'use server';
// Server actions of the projects page: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const createProject = serverAction((api, input: { name: string; default_region?: string | null }) =>
  api.projects.create(input),
);

export const setProjectRegion = serverAction((api, input: { id: string; default_region: string | null }) =>
  api.projects.update(input),
);
