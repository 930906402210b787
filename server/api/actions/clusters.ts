'use server';
// Server actions over compute.clusters (create, delete): each runs its procedure through the
// request middleware, so the body's `region` takes part in the region cascade as it does for REST.
import type { inferRouterInputs } from '@trpc/server';
import { serverAction } from '../adapters/action';
import type { AppRouter } from '../root';

type CreateInput = inferRouterInputs<AppRouter>['compute']['clusters']['create'];

export const createCluster = serverAction((api, input: CreateInput) => api.compute.clusters.create(input));

export const deleteCluster = serverAction((api, input: { id: string }) => api.compute.clusters.delete(input));
