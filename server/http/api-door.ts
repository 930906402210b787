// The API's door in the gateway's own HTTP server: REST (/v1) and tRPC (/api/trpc) requests go
// straight to their adapters (server/api/adapters/rest.ts and trpc-http.ts, the same handlers
// app/v1/[[...path]]/route.ts and app/api/trpc/[trpc]/route.ts export, so the same one
// middleware and procedures), without passing through Next's router and route-handler
// machinery, which costs more CPU per request than the API's own work does (bench hot-path: an
// empty route handler through Next is about 1.3 ms of CPU per request on the benchmark machine,
// an answer from this server about 0.2 ms).
//
// What Next did for these requests, done here: the static security headers
// (security-headers.ts), gzip when the client accepts it (reads only: compression.ts), and HEAD as
// GET without the body.
// What stays with Next: OPTIONS (its automatic Allow) and other methods a route does not export,
// a path with a trailing slash (its redirect), the OpenAPI document (its own route), and every
// page and server action.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { env } from '../env';
import { newRequestId } from '../ids';
import { logger } from '../telemetry/logger';
import { SECURITY_HEADERS } from './security-headers';

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

/** What the door reads and throws away of a body its answer did not need, at most. */
const DISCARD_BYTES = 1 << 20;
const DISCARD_MS = 5_000;
const discarding = new WeakMap<IncomingMessage, Promise<void>>();

/**
 * Reads and throws away the rest of a body the answer did not need (refused past the size limit,
 * or answered without reading it), so the answer reaches a client that is still sending: closing
 * the connection under its writes would reset it, and the client would see a broken pipe instead
 * of the 413. The connection closes after the answer. Bounded: past DISCARD_BYTES or DISCARD_MS
 * the connection is closed anyway.
 */
function discardRest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const known = discarding.get(req);
  if (known) return known;
  res.shouldKeepAlive = false;
  const done = new Promise<void>((resolve) => {
    if (req.complete || req.destroyed) return resolve();
    let discarded = 0;
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(stop, DISCARD_MS);
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded > DISCARD_BYTES) stop();
    });
    req.on('end', stop);
    req.on('error', stop);
    req.on('close', stop);
    req.resume();
  });
  discarding.set(req, done);
  return done;
}

/** The body as a web stream that reads `req` as the adapter pulls; cancelled, the rest is discarded. */
function bodyStream(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  // Cancelled by the adapter, or the answer went without it: the rest is being discarded.
  const discarded = () => discarding.has(req);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (discarded()) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.on('end', () => discarded() || controller.close());
        req.on('error', (e) => discarded() || controller.error(e));
        req.pause(); // flows as the adapter pulls
      },
      pull() {
        req.resume();
      },
      cancel() {
        void discardRest(req, res);
      },
    },
    { highWaterMark: 1 },
  );
}

/** The request as the adapter reads it: Next's URL (the Host header's), headers, body as a stream. */
function toRequest(req: IncomingMessage, res: ServerResponse): Request {
  const e = env();
  // As parsed (repeated headers joined), after main.ts replaced what the client may not set.
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (v) for (const one of v) headers.append(k, one);
  }
  const host = req.headers.host ?? `${e.MERIDIAN_BIND}:${e.PORT}`;
  const method = req.method === 'HEAD' ? 'GET' : req.method!;
  const hasBody = method !== 'GET' && (method !== 'DELETE' || req.headers['content-length'] !== undefined);
  return new Request(`http://${host}${req.url}`, {
    method,
    headers,
    ...(hasBody ? { body: bodyStream(req, res), duplex: 'half' } : {}),
  } as RequestInit);
}

async function send(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  const out: Record<string, string | string[]> = {};
  for (const { key, value } of SECURITY_HEADERS) out[key] = value;
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
  // A body the answer did not read in full: the answer is written now, and the connection closes
  // once the rest has arrived (discardRest).
  const rest = req.complete ? undefined : discardRest(req, res);
  res.writeHead(response.status, out);
  if (!rest) return void res.end(req.method === 'HEAD' ? undefined : body);
  if (req.method !== 'HEAD') res.write(body);
  await rest;
  res.end();
}

/** Answers one API request; never throws (a failure of its own is a contract 500, logged). */
export async function serveApi(
  req: IncomingMessage,
  res: ServerResponse,
  handle: (request: Request) => Promise<Response>,
): Promise<void> {
  try {
    let request: Request;
    try {
      request = toRequest(req, res);
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
