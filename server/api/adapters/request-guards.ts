// What every request to /v1 and /api/trpc passes before parsing or authentication: a bounded body,
// a URL that decodes, JSON where a body is expected (docs/security.md).
import { env } from '../../env';
import { AppError } from '../../errors';
import { readBoundedBody } from '../../net/body';
import { isDecodable, MALFORMED_URL_HEADER } from '../../net/url';

export function assertDecodable(url: URL, headers?: Headers): void {
  if (headers?.get(MALFORMED_URL_HEADER) || !isDecodable(`${url.pathname}${url.search}`)) {
    throw new AppError('invalid_request', 'the request URL has a malformed percent-encoding');
  }
}

/** The request with its body read into memory (server/net/body.ts), for handlers that read it again. */
export async function withBoundedBody(req: Request): Promise<Request> {
  const body = await readBoundedBody(req, { limit: env().MERIDIAN_MAX_BODY_BYTES });
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
