// What the gateway's server does with a body once read (server/net/body.ts reads it): hands it
// to Next as if from the socket, or throws away the unread rest of one it refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

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
