// Checks every HTTP request to /v1 and /api/trpc passes before anything parses it or looks up a
// caller: a body within MERIDIAN_MAX_BODY_BYTES (by Content-Length and while streaming), a path
// and query that decode, and JSON where a body is expected. Each failure is a contract error.
import { env } from '../../env';
import { AppError } from '../../errors';
import { isDecodable, MALFORMED_URL_HEADER } from '../../net/url';

export function assertDecodable(url: URL, headers?: Headers): void {
  if (headers?.get(MALFORMED_URL_HEADER) || !isDecodable(`${url.pathname}${url.search}`)) {
    throw new AppError('invalid_request', 'the request URL has a malformed percent-encoding');
  }
}

function tooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `request bodies are limited to ${limit} bytes`, {
    extra: { limit_bytes: limit },
  });
}

/**
 * The request's body read into memory, at most `limit` bytes (undefined: no body): a larger
 * Content-Length is refused before reading, and a body that streams past the limit (chunked, or
 * a lying length) is refused as soon as it does.
 */
export async function readBoundedBody(
  req: Request,
  limit = env().MERIDIAN_MAX_BODY_BYTES,
): Promise<Uint8Array | undefined> {
  if (!req.body) return undefined;
  const declared = req.headers.get('content-length');
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > limit)) {
    await req.body.cancel().catch(() => {});
    if (!/^\d+$/.test(declared)) throw new AppError('invalid_request', 'Content-Length is not a number');
    throw tooLarge(limit);
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

/** The request with its body read into memory (readBoundedBody), for handlers that read it again. */
export async function withBoundedBody(req: Request, limit = env().MERIDIAN_MAX_BODY_BYTES): Promise<Request> {
  const body = await readBoundedBody(req, limit);
  if (body === undefined) return req;
  const headers = new Headers(req.headers);
  headers.delete('content-length'); // the new Request sets its own
  return new Request(req.url, { method: req.method, headers, body: body as BodyInit, signal: req.signal });
}

/** tRPC over HTTP takes JSON only: a form post (no CORS preflight) never reaches a procedure. */
export function assertJsonBody(req: Request): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new AppError('unsupported_media_type', 'send JSON with Content-Type: application/json');
  }
}
