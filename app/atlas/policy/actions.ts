'use server';
// Server actions of Atlas' routing policy editor: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const publishPolicy = serverAction(
  (api, input: { org: string; content: Record<string, unknown>; reason?: string }) => api.atlas.policies.publish(input),
);
export const rollbackPolicy = serverAction((api, input: { org: string; version: string; reason?: string }) =>
  api.atlas.policies.rollback(input),
);
