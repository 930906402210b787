// The one bounded reader of request bodies, for node's IncomingMessage and a web Request alike.
// Limits, 413 and 408: docs/security.md
import type { IncomingMessage } from 'node:http';
import { env } from '../env';
import { AppError } from '../errors';

export interface BodyBounds {
  /** At most this many bytes. */
  limit: number;
  /** The whole body within this many milliseconds of the read starting. */
  timeoutMs: number;
}

export function bodyTooLarge(limit: number): AppError {
  return new AppError('payload_too_large', `request bodies are limited to ${limit} bytes`, {
    extra: { limit_bytes: limit },
  });
}

function bodyTimedOut(ms: number): AppError {
  return new AppError('request_timeout', `the request body did not arrive within ${ms} ms`);
}

/** A body's chunks as they arrive, never more than `limit` bytes of them. */
class BoundedChunks {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}

  /** false: this chunk takes the body past its limit (and is not kept). */
  add(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength;
    if (this.size > this.limit) return false;
    this.chunks.push(chunk);
    return true;
  }

  body(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

export type BodyRead =
  { kind: 'none' } | { kind: 'read'; body: Buffer } | { kind: 'refused'; error: AppError } | { kind: 'gone' };

/** Whether the request comes with a body (chunked, or a length above zero). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * The gateway's read, before a request takes an admission slot. A refused body is left unread
 * past the refusal, for the answer to throw away (server/http/body-replay.ts, discardRest).
 */
export function readRequestBody(req: IncomingMessage, bounds: BodyBounds): Promise<BodyRead> {
  if (!hasBody(req)) return Promise.resolve({ kind: 'none' });
  // Node's parser has already refused a Content-Length that is not a number.
  if (Number(req.headers['content-length'] ?? 0) > bounds.limit) {
    return Promise.resolve({ kind: 'refused', error: bodyTooLarge(bounds.limit) });
  }
  return new Promise((resolve) => {
    const chunks = new BoundedChunks(bounds.limit);
    const finish = (read: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      if (!chunks.add(chunk)) finish({ kind: 'refused', error: bodyTooLarge(bounds.limit) });
    };
    const onEnd = () => finish({ kind: 'read', body: chunks.body() });
    const onError = () => finish({ kind: 'gone' });
    const timer = setTimeout(
      () => finish({ kind: 'refused', error: bodyTimedOut(bounds.timeoutMs) }),
      bounds.timeoutMs,
    );
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}

/** A web Request's body read into memory (undefined: no body); throws the refusal. */
export async function readBoundedBody(
  req: Request,
  { limit, timeoutMs = env().MERIDIAN_BODY_TIMEOUT_MS }: Pick<BodyBounds, 'limit'> & Partial<BodyBounds>,
): Promise<Uint8Array | undefined> {
  if (!req.body) return undefined;
  const declared = req.headers.get('content-length');
  if (declared !== null && (!/^\d+$/.test(declared) || Number(declared) > limit)) {
    await req.body.cancel().catch(() => {});
    if (!/^\d+$/.test(declared)) throw new AppError('invalid_request', 'Content-Length is not a number');
    throw bodyTooLarge(limit);
  }
  const reader = req.body.getReader();
  const chunks = new BoundedChunks(limit);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimedOut(timeoutMs)), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) return chunks.body();
      if (!chunks.add(value)) throw bodyTooLarge(limit);
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** The body as UTF-8 text ('' without one), read as readBoundedBody does. */
export async function readBodyText(req: Request, bounds: Pick<BodyBounds, 'limit'>): Promise<string> {
  const body = await readBoundedBody(req, bounds);
  return body ? Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8') : '';
}

/** A body's text as JSON (an empty body is `{}`); not JSON is 400. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'the body is not JSON');
  }
}
