'use server';
// Server actions over apiKeys (create a region or organization-wide key, revoke one): each runs
// its procedure through the request middleware.
import type { inferRouterInputs } from '@trpc/server';
import { serverAction } from '../adapters/action';
import type { AppRouter } from '../root';

type Inputs = inferRouterInputs<AppRouter>['apiKeys'];

export const createApiKey = serverAction((api, input: Inputs['create']) => api.apiKeys.create(input));

export const createGlobalApiKey = serverAction((api, input: Inputs['createGlobal']) => api.apiKeys.createGlobal(input));

export const revokeApiKey = serverAction((api, input: Inputs['revoke']) => api.apiKeys.revoke(input));
