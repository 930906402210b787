'use server';
// Server actions of the routing inspector (explain a read or a write): each runs its procedure
// through the same request middleware as the REST API and tRPC.
import { serverAction } from '../adapters/action';

export const explainRead = serverAction((api, input: { region?: string }) => api.routing.resolve(input));

export const explainWrite = serverAction((api, input: { region?: string }) => api.routing.resolveWrite(input));
