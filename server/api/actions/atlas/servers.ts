'use server';
// Server actions over atlas.servers (provision): each runs its procedure through the request middleware.
import { serverAction } from '../../adapters/action';

export const provisionServer = serverAction((api, input: { id: string }) => api.atlas.servers.provision(input));
