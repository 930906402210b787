'use server';
// Server actions over atlas.moves (start, cancel a workspace move): each runs its procedure
// through the request middleware.
import { serverAction } from '../../adapters/action';

export const startMove = serverAction((api, input: { slug: string; to_region: string }) =>
  api.atlas.moves.start(input),
);
export const cancelMove = serverAction((api, input: { id: string }) => api.atlas.moves.cancel(input));
