'use server';
// Server actions over atlas.policies (publish, roll back a routing policy): each runs its
// procedure through the request middleware.
import { serverAction } from '../../adapters/action';

export const publishPolicy = serverAction(
  (api, input: { org: string; content: Record<string, unknown>; reason?: string }) => api.atlas.policies.publish(input),
);
export const rollbackPolicy = serverAction((api, input: { org: string; version: string; reason?: string }) =>
  api.atlas.policies.rollback(input),
);
