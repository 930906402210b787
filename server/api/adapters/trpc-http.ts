// tRPC over HTTP for the browser (/api/trpc). One procedure per request (the client uses
// httpLink), so each response carries that procedure's request ID and region headers.
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createContext } from '../context';
import { toAppError } from '../middleware/error-mapping';
import { appRouter } from '../root';
import { assertDecodable, assertJsonBody, withBoundedBody } from './request-guards';
import { failedRequest, runService } from './service-route';

export const TRPC_ENDPOINT = '/api/trpc';

export async function handleTrpc(raw: Request): Promise<Response> {
  let req: Request;
  try {
    assertDecodable(new URL(raw.url), raw.headers);
    assertJsonBody(raw);
    req = await withBoundedBody(raw);
  } catch (e) {
    return failedRequest(raw, 'trpc.refused', e);
  }
  const res = await (fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req,
    router: appRouter,
    // One procedure per HTTP request (the client uses httpLink): no unbounded batches.
    allowBatching: false,
    createContext: ({ resHeaders }) =>
      createContext({
        transport: 'trpc',
        method: req.method,
        url: new URL(req.url),
        headers: req.headers,
        setHeader: (k, v) => resHeaders.set(k, v),
      }),
    responseMeta: ({ errors }) => (errors.length > 0 ? { status: toAppError(errors[0]).status } : {}),
    onError: () => {}, // logged by the request middleware
  }) as Promise<Response>);
  if (res.headers.has('X-Request-Id')) return res;
  // No procedure ran (unknown path, unparsable input): still a request with an ID and a log line.
  return runService(req, { name: 'trpc.unmatched' }, async () => res);
}
