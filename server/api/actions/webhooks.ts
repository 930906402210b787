'use server';
// Server actions over webhooks (create, change, delete, rotate, test, redeliver): each runs its
// procedure through the request middleware.
import type { inferRouterInputs } from '@trpc/server';
import { serverAction } from '../adapters/action';
import type { AppRouter } from '../root';

type Inputs = inferRouterInputs<AppRouter>['webhooks'];

export const createWebhook = serverAction((api, input: Inputs['create']) => api.webhooks.create(input));

export const updateWebhook = serverAction((api, input: Inputs['update']) => api.webhooks.update(input));

export const deleteWebhook = serverAction((api, input: Inputs['delete']) => api.webhooks.delete(input));

export const rotateWebhookSecret = serverAction((api, input: Inputs['rotateSecret']) =>
  api.webhooks.rotateSecret(input),
);

export const testWebhook = serverAction((api, input: Inputs['test']) => api.webhooks.test(input));

export const redeliverWebhook = serverAction((api, input: Inputs['redeliver']) => api.webhooks.redeliver(input));
