'use server';
// Server actions over atlas.database (a planned switchover): each runs its procedure through the
// request middleware.
import { serverAction } from '../../adapters/action';

export const switchoverDatabase = serverAction((api, input: { reason: string; candidate?: string }) =>
  api.atlas.database.switchover(input),
);
