'use server';
// Server actions of Atlas' workspace moves: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const startMove = serverAction((api, input: { slug: string; to_region: string }) =>
  api.atlas.moves.start(input),
);
export const cancelMove = serverAction((api, input: { id: string }) => api.atlas.moves.cancel(input));
