'use server';
// Server actions of the routing inspector. Every action is a `serverAction`: it runs a
// procedure through the same request middleware as the REST API and tRPC.
import { serverAction } from '~/server/api/adapters/action';

export const explainRead = serverAction((api, input: { region?: string }) => api.routing.resolve(input));

export const explainWrite = serverAction((api, input: { region?: string }) => api.routing.resolveWrite(input));
