// The gateway's body read and replay over a real socket: Next reads the replayed body with
// 'data' events or an async iterator (Auth.js's form posts), and gets it whole either way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readRequestBody } from '../net/body';
import { replayBody } from './body-replay';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** Posts `body` to a server that reads it with the gateway's limits, replays it, and reads it again with `reread`. */
async function roundTrip(body: string, reread: (req: http.IncomingMessage) => Promise<string>, chunked = false) {
  server = http.createServer((req, res) => {
    void readRequestBody(req, { limit: 1024, timeoutMs: 2_000 }).then(async (read) => {
      if (read.kind !== 'read') return void res.writeHead(400).end(read.kind);
      replayBody(req, read.body);
      res.end(JSON.stringify({ length: req.headers['content-length'], body: await reread(req) }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ length?: string; body: string }>((resolve, reject) => {
    const req = http.request(
      { port, method: 'POST', headers: chunked ? {} : { 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve(JSON.parse(text) as { length?: string; body: string }));
      },
    );
    req.on('error', reject);
    if (chunked) req.write(body.slice(0, 3));
    req.end(chunked ? body.slice(3) : body);
  });
}

describe('a replayed body', () => {
  it('reaches an async iterator whole (the read that hung Auth.js sign-in)', async () => {
    const got = await roundTrip('email=a%40b.c&password=x', async (req) => {
      let text = '';
      for await (const c of req) text += String(c);
      return text;
    });
    expect(got).toEqual({ length: '24', body: 'email=a%40b.c&password=x' });
  });

  it('reaches data listeners whole, a chunked body with its length', async () => {
    const got = await roundTrip(
      'hello, world',
      (req) =>
        new Promise((resolve) => {
          let text = '';
          req.on('data', (c: Buffer) => (text += c));
          req.on('end', () => resolve(text));
        }),
      true,
    );
    expect(got).toEqual({ length: '12', body: 'hello, world' });
  });
});
