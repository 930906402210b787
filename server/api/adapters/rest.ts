// The public REST API (/v1/…): the same procedures as tRPC, exposed by trpc-to-openapi from
// each procedure's `openapi` meta. Errors leave as the contract's {"error": {…}} body.
import { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { env } from '../../env';
import { AppError, type ErrorBody } from '../../errors';
import { readBoundedBody } from '../../net/body';
import { createContext, type Context } from '../context';
import { toAppError } from '../middleware/error-mapping';
import { appRouter } from '../root';
import { assertDecodable } from './request-guards';
import { failedRequest } from './service-route';

export const REST_BASE = '/v1';

const ORIGINAL_URL = Symbol('original url');

/** The request as trpc-to-openapi's handler reads it: the URL without /v1, the body parsed. */
function openApiRequest(req: Request, body: unknown, bodyError: unknown): Request {
  const url = req.url.replace(`${new URL(req.url).origin}${REST_BASE}`, new URL(req.url).origin);
  return new Proxy(req, {
    get: (target, prop) => {
      if (prop === 'url') return url;
      if (prop === ORIGINAL_URL) return target.url;
      if (prop === 'body') {
        if (bodyError)
          throw new TRPCError({ code: 'PARSE_ERROR', message: 'Failed to parse request body', cause: bodyError });
        return body;
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

type NodeHandler = ReturnType<typeof createOpenApiNodeHttpHandler>;
type Out = { setHeader(k: string, v: string | string[]): void; statusCode?: number; end(body?: string): void };

/**
 * trpc-to-openapi's handler, made once: its fetch adapter rebuilds it (and its table of every
 * procedure's path) on each request.
 */
let handler: NodeHandler | undefined;
const openApiHandler = (): NodeHandler =>
  (handler ??= createOpenApiNodeHttpHandler({
    router: appRouter,
    createContext: ({ req: r, res: out }: { req: Request; res: Out }): Context =>
      createContext({
        transport: 'rest',
        method: r.method,
        url: new URL((r as unknown as Record<symbol, string>)[ORIGINAL_URL] ?? r.url),
        headers: r.headers,
        setHeader: (k, v) => out.setHeader(k, v),
      }),
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) => {
      if (errors.length > 0) return { status: toAppError(errors[0]).status };
      return ctx?.response.status ? { status: ctx.response.status } : {};
    },
  } as unknown as Parameters<typeof createOpenApiNodeHttpHandler>[0]));

const utf8 = new TextDecoder();

/** `bytes`: the request's body, read once by handleRest (never read from `req` again). */
async function runOpenApi(req: Request, bytes: Uint8Array | undefined): Promise<Response> {
  let body: unknown;
  let bodyError: unknown;
  const type = req.headers.get('content-type') ?? '';
  try {
    const text = bytes ? utf8.decode(bytes) : '';
    body = type.includes('application/json') ? JSON.parse(text) : text || undefined;
  } catch (e) {
    bodyError = e;
  }
  const headers = new Headers();
  return new Promise<Response>((resolve) => {
    const out: Out = {
      setHeader: (k, v) => {
        if (typeof v === 'string') headers.set(k, v);
        else for (const one of v) headers.append(k, one);
      },
      end: (text) => resolve(new Response(text, { headers, status: out.statusCode })),
    };
    void (openApiHandler() as unknown as (req: unknown, res: Out) => Promise<void>)(
      openApiRequest(req, body, bodyError),
      out,
    );
  });
}

export async function handleRest(req: Request): Promise<Response> {
  let bytes: Uint8Array | undefined;
  try {
    assertDecodable(new URL(req.url), req.headers);
    bytes = await readBoundedBody(req, { limit: env().MERIDIAN_MAX_BODY_BYTES });
  } catch (e) {
    return failedRequest(req, 'rest.refused', e);
  }
  const res = await runOpenApi(req, bytes);

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
