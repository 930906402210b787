// The one bounded reader of a request body as route handlers and adapters see it (a web Request):
// a declared length past the limit is refused before reading, and a body that streams past it
// (chunked, or a lying length) is refused as soon as it does, so no body is ever held past its
// limit. The gateway's own server (server/http/body.ts) bounds the same way before any of this.
import { AppError } from '../errors';

export function bodyTooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `request bodies are limited to ${limit} bytes`, {
    extra: { limit_bytes: limit },
  });
}

/** The request's body read into memory, at most `limit` bytes (undefined: no body). */
export async function readBoundedBody(req: Request, limit: number): Promise<Uint8Array | undefined> {
  if (!req.body) return undefined;
  const declared = req.headers.get('content-length');
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > limit)) {
    await req.body.cancel().catch(() => {});
    if (!/^\d+$/.test(declared)) throw new AppError('invalid_request', 'Content-Length is not a number');
    throw bodyTooLarge(limit);
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
      throw bodyTooLarge(limit);
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
