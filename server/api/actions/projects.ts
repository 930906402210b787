'use server';
// Server actions over projects (create, set region, delete): each runs its procedure through the request middleware.
import { serverAction } from '../adapters/action';

export const createProject = serverAction((api, input: { name: string; default_region?: string | null }) =>
  api.projects.create(input),
);

export const setProjectRegion = serverAction((api, input: { id: string; default_region: string | null }) =>
  api.projects.update(input),
);

export const deleteProject = serverAction((api, input: { id: string }) => api.projects.delete(input));
