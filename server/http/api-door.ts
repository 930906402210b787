// The API door: /v1 and /api/trpc go from the gateway's HTTP server straight to their adapters,
// past Next's router (why and what stays with Next: docs/decisions/0001-the-api-door.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { env } from '../env';
import { newRequestId } from '../ids';
import { logger } from '../telemetry/logger';
import { isHostHeader } from './host-header';
import { securityHeaders } from './security-headers';

const REST_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const NOT_HERE = new Set(['/v1/openapi.json']);
const gzipped = promisify(gzip);

/** Which API the door answers this request for (`undefined`: Next does). */
export function apiDoorRoute(req: IncomingMessage): 'rest' | 'trpc' | undefined {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path.endsWith('/')) return undefined;
  if (path.startsWith('/v1/')) return REST_METHODS.has(req.method ?? '') && !NOT_HERE.has(path) ? 'rest' : undefined;
  // tRPC's route handler exports GET and POST (one procedure per request).
  if (path.startsWith('/api/trpc/')) return req.method === 'GET' || req.method === 'POST' ? 'trpc' : undefined;
  return undefined;
}

function acceptsGzip(req: IncomingMessage): boolean {
  const accept = req.headers['accept-encoding'];
  if (typeof accept !== 'string') return false;
  return accept.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * The request as the adapter reads it: the URL from the Host header (main.ts has refused one that
 * is not a host), headers, and the body main.ts read before the request took its slot.
 */
function toRequest(req: IncomingMessage, body: Buffer | undefined): Request {
  const e = env();
  // As parsed (repeated headers joined), after main.ts replaced what the client may not set.
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (v) for (const one of v) headers.append(k, one);
  }
  const host = req.headers.host ?? `${e.MERIDIAN_BIND}:${e.PORT}`;
  // A path or query in the Host would become the request's (main.ts refuses it first).
  if (!isHostHeader(host)) throw new Error('not a host');
  const method = req.method === 'HEAD' ? 'GET' : req.method!;
  // As before the body was read here: a POST, PUT or PATCH always has one (maybe empty).
  const withBody = method !== 'GET' && (method !== 'DELETE' || body !== undefined);
  return new Request(`http://${host}${req.url}`, {
    method,
    headers,
    ...(withBody ? { body: (body ?? new Uint8Array(0)) as BodyInit } : {}),
  });
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const out: Record<string, string | string[]> = securityHeaders(req.headers['x-forwarded-proto']);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') out[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  let body = Buffer.from(await response.arrayBuffer());
  // Mutations never get here with an Accept-Encoding (compression.ts drops it for both doors).
  if (req.method !== 'HEAD' && body.length > 0 && acceptsGzip(req)) {
    body = await gzipped(body);
    out['content-encoding'] = 'gzip';
    out.vary = out.vary ? `${out.vary}, Accept-Encoding` : 'Accept-Encoding';
  }
  out['content-length'] = String(body.length);
  res.writeHead(response.status, out);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Answers one API request; never throws (a failure of its own is a contract 500, logged). */
export async function serveApi(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (request: Request) => Promise<Response>,
  body: Buffer | undefined,
): Promise<void> {
  try {
    let request: Request;
    try {
      request = toRequest(req, body);
    } catch {
      // A Host header that makes no URL.
      return await send(req, res, refusal(400, 'invalid_request', 'the Host header is not a valid host'));
    }
    await send(req, res, await handle(request));
  } catch (e) {
    logger.error({ err: e instanceof Error ? e.message : String(e), url: req.url }, 'API door failed');
    if (!res.headersSent)
      await send(req, res, refusal(500, 'internal_error', 'something went wrong on our side')).catch(() => {});
    else res.destroy();
  }
}

function refusal(status: number, code: string, message: string): Response {
  const requestId = newRequestId(env().MERIDIAN_GATEWAY_REGION);
  return Response.json(
    { error: { code, message, request_id: requestId } },
    { status, headers: { 'X-Request-Id': requestId, 'Cache-Control': 'no-store' } },
  );
}
