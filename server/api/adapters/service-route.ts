// Plain Next route handlers (/metrics, /health/region, /v1/openapi.json, and REST requests
// that match no procedure) run through the same request middleware as every procedure.
import { errorBody } from '../../errors';
import { createContext, type Context } from '../context';
import { toAppError } from '../middleware/error-mapping';
import { requestMiddleware, type RouteMeta } from '../middleware/request';

export type ServiceHandler = (ctx: Context, req: Request) => Promise<Response>;

export function serviceRoute(meta: RouteMeta & { name: string }, handler: ServiceHandler) {
  return async (req: Request): Promise<Response> => runService(req, meta, handler);
}

export async function runService(
  req: Request,
  meta: RouteMeta & { name: string },
  handler: ServiceHandler,
): Promise<Response> {
  const headers = new Headers();
  const ctx = createContext({
    transport: 'rest',
    method: req.method,
    url: new URL(req.url),
    headers: req.headers,
    setHeader: (k, v) => headers.set(k, v),
  });
  let response: Response | undefined;
  try {
    await requestMiddleware({
      ctx,
      meta: { region: 'gateway', ...meta },
      path: meta.name,
      type: req.method === 'GET' || req.method === 'HEAD' ? 'query' : 'mutation',
      getRawInput: async () => undefined,
      next: async () => {
        response = await handler(ctx, req);
        ctx.response.status = response.status;
        return { ok: true };
      },
    });
  } catch (e) {
    const err = toAppError(e);
    response = Response.json(errorBody(err, ctx.requestId), { status: err.status });
  }
  const out = new Response(response!.body, { status: response!.status, headers: response!.headers });
  headers.forEach((v, k) => out.headers.set(k, v));
  return out;
}

/** Answers `req` with `error` through the middleware (request ID, headers, log line, metrics). */
export function failedRequest(req: Request, name: string, error: unknown): Promise<Response> {
  return runService(req, { name }, async () => {
    throw error;
  });
}
