'use server';
// Server actions over organization.sso (save, turn off): each runs its procedure through the
// request middleware.
import type { inferRouterInputs } from '@trpc/server';
import { serverAction } from '../adapters/action';
import type { AppRouter } from '../root';

type Inputs = inferRouterInputs<AppRouter>['organization']['sso'];

export const saveSso = serverAction((api, input: Inputs['update']) => api.organization.sso.update(input));

export const removeSso = serverAction((api) => api.organization.sso.remove());
