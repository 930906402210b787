// The public REST API (/v1/…): the same procedures as tRPC, exposed by trpc-to-openapi from
// each procedure's `openapi` meta. Errors leave as the contract's {"error": {…}} body.
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { AppError, type ErrorBody } from '../../errors';
import { createContext, type Context } from '../context';
import { toAppError } from '../middleware/error-mapping';
import { appRouter } from '../root';
import { assertDecodable, withBoundedBody } from './request-guards';
import { failedRequest } from './service-route';

export const REST_BASE = '/v1';

export async function handleRest(raw: Request): Promise<Response> {
  let req: Request;
  try {
    assertDecodable(new URL(raw.url), raw.headers);
    req = await withBoundedBody(raw);
  } catch (e) {
    return failedRequest(raw, 'rest.refused', e);
  }
  const res = await createOpenApiFetchHandler({
    endpoint: REST_BASE,
    router: appRouter,
    req,
    createContext: ({ req: r, res: out }: { req: Request; res: { setHeader(k: string, v: string): void } }): Context =>
      createContext({
        transport: 'rest',
        method: r.method,
        url: new URL(req.url),
        headers: r.headers,
        setHeader: (k, v) => out.setHeader(k, v),
      }),
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) => {
      if (errors.length > 0) return { status: toAppError(errors[0]).status };
      return ctx?.response.status ? { status: ctx.response.status } : {};
    },
  } as unknown as Parameters<typeof createOpenApiFetchHandler>[0]);

  if (!res.headers.has('X-Request-Id')) {
    // Failed before any procedure ran (no such path, bad content type, unparsable JSON):
    // answer through the middleware so it still gets a request ID, a log line and metrics.
    return failedRequest(req, 'rest.unmatched', await restFailure(res));
  }
  if (res.status < 400) return res;
  const body = (await res.json()) as { data?: { error?: ErrorBody['error'] } };
  const headers = new Headers(res.headers);
  headers.set('Content-Type', 'application/json');
  return new Response(JSON.stringify({ error: body.data?.error }), { status: res.status, headers });
}

async function restFailure(res: Response): Promise<AppError> {
  const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
  switch (body.code) {
    case 'NOT_FOUND':
      return new AppError('not_found', 'no such API path (see /v1/openapi.json)');
    case 'UNSUPPORTED_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'send JSON with Content-Type: application/json');
    case 'PARSE_ERROR':
      return new AppError('invalid_request', 'the request body is not valid JSON');
    case 'METHOD_NOT_SUPPORTED':
      return new AppError('method_not_allowed', 'this method is not allowed on this path');
    default:
      return toAppError(new Error(body.message ?? `REST adapter answered ${res.status}`));
  }
}
