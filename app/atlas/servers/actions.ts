'use server';
// Server actions of Atlas' servers: each runs its procedure through the request middleware.
import { serverAction } from '~/server/api/adapters/action';

export const provisionServer = serverAction((api, input: { id: string }) => api.atlas.servers.provision(input));
