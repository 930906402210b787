'use server';
// Server actions of the cluster pages: each runs its procedure through the request middleware
// (so the body's `region` takes part in the region cascade, as it does for the REST API).
import type { inferRouterInputs } from '@trpc/server';
import { serverAction } from '~/server/api/adapters/action';
import type { AppRouter } from '~/server/api/root';

type CreateInput = inferRouterInputs<AppRouter>['compute']['clusters']['create'];

export const createCluster = serverAction((api, input: CreateInput) => api.compute.clusters.create(input));

export const deleteCluster = serverAction((api, input: { id: string }) => api.compute.clusters.delete(input));
