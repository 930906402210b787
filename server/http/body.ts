// Request bodies in the gateway's own server, read before a request takes an admission slot:
// bounded in size (413 as soon as a body passes its limit, before reading it all) and in time
// (408 past MERIDIAN_BODY_TIMEOUT_MS), so a client sending slowly, or without end, holds a
// connection and a place in its own per-peer count (peers.ts) but never a slot that pages and
// the API need. The body read here is what the API door and Next then get.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { AppError } from '../errors';
import { bodyTooLarge } from '../net/body';

export type BodyRead =
  { kind: 'none' } | { kind: 'read'; body: Buffer } | { kind: 'refused'; error: AppError } | { kind: 'gone' };

/** Whether the request comes with a body (chunked, or a length above zero). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

export function readRequestBody(req: IncomingMessage, opts: { limit: number; timeoutMs: number }): Promise<BodyRead> {
  if (!hasBody(req)) return Promise.resolve({ kind: 'none' });
  // Node's parser has already refused a Content-Length that is not a number.
  if (Number(req.headers['content-length'] ?? 0) > opts.limit) {
    return Promise.resolve({ kind: 'refused', error: bodyTooLarge(opts.limit) });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > opts.limit) return finish({ kind: 'refused', error: bodyTooLarge(opts.limit) });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'read', body: Buffer.concat(chunks, size) });
    const onError = () => finish({ kind: 'gone' });
    const timer = setTimeout(
      () =>
        finish({
          kind: 'refused',
          error: new AppError('request_timeout', `the request body did not arrive within ${opts.timeoutMs} ms`),
        }),
      opts.timeoutMs,
    );
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}

/**
 * Hands Next the body read here the way Next hands a route the body its own proxy read
 * (next/dist/server/body-streams.js, replaceRequestBody): the request's stream members are
 * replaced by those of a stream holding the body, so Next reads it as if from the socket.
 */
export function replayBody(req: IncomingMessage, body: Buffer): void {
  // The whole body is here: Next gets it as a body of known length, not a chunked one still open.
  delete req.headers['transfer-encoding'];
  req.headers['content-length'] = String(body.byteLength);
  const replay = new Readable({ read() {} });
  const target = req as unknown as Record<string, unknown>;
  for (const key in replay) {
    let v = (replay as unknown as Record<string, unknown>)[key];
    if (typeof v === 'function') v = v.bind(req);
    target[key] = v;
  }
  // Pushed through the request, not the stream it borrowed from: a push schedules its 'readable'
  // event on the stream it was called on, and an async iterator over the request ignores events
  // from any other (its listener then throws "callback is not a function" and the read hangs).
  req.push(body);
  req.push(null);
}

/** What is read and thrown away of a body the answer did not need, at most. */
const DISCARD_BYTES = 1 << 20;

/**
 * Reads and throws away the rest of a body the answer did not need (refused past the size limit
 * or the deadline), so the answer reaches a client that is still sending: closing the connection
 * under its writes would reset it, and the client would see a broken pipe instead of the answer.
 * The connection closes after the answer. Bounded: past DISCARD_BYTES or `ms` the connection is
 * closed anyway.
 */
export function discardRest(req: IncomingMessage, res: ServerResponse, ms: number): Promise<void> {
  res.shouldKeepAlive = false;
  return new Promise<void>((resolve) => {
    if (req.complete || req.destroyed) return resolve();
    let discarded = 0;
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(stop, ms);
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded > DISCARD_BYTES) stop();
    });
    req.on('end', stop);
    req.on('error', stop);
    req.on('close', stop);
    req.resume();
  });
}
