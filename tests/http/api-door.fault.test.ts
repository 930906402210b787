// The API's door (server/http/api-door.ts) in the real gateway: /v1 and /api/trpc go straight to
// their adapters, past Next, and answers as Next did: the security headers, gzip for reads whose
// client accepts it, HEAD as GET without the body, the contract's 413 for a body past the limit
// (declared or streamed) with the connection closed cleanly, and a Host that makes no URL a 400.
// What stays with Next (its answers carry its `Vary: rsc, …`): OPTIONS, a trailing slash's
// redirect, the OpenAPI document.
import http from 'node:http';
import net from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBenchServer, type BenchServer } from '../../bench/server';
import { memberCookie } from '../../dev/testing/app';
import { checkRaw } from '../../dev/testing/contract';

let srv: BenchServer;
let key: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function call(
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string | Buffer[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${srv.baseUrl}${path}`,
      { agent, method: opts.method ?? 'GET', headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          try {
            const plain = res.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
            checkRaw(opts.method ?? 'GET', path, res.statusCode!, res.headers, plain.toString('utf8'));
          } catch (e) {
            reject(e);
            return;
          }
          resolve({ status: res.statusCode!, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    if (Array.isArray(opts.body)) {
      for (const c of opts.body) req.write(c); // chunked: no Content-Length
      req.end();
    } else req.end(opts.body);
  });
}

const json = (a: Answer) => JSON.parse(a.body.toString('utf8')) as { error?: { code: string; request_id: string } };
const servedByNext = (a: Answer) => /\brsc\b/.test(String(a.headers.vary ?? ''));

beforeAll(async () => {
  srv = await startBenchServer();
  key = srv.stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
}, 300_000);
afterAll(async () => {
  agent.destroy();
  await srv?.stop();
});

describe('the API door', () => {
  it('serves /v1 itself, with the security headers, gzip only for a client that accepts it, and HEAD as GET', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const plain = await call('/v1/projects', { headers: auth });
    expect(plain.status).toBe(200);
    expect(servedByNext(plain)).toBe(false);
    expect(plain.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-region': 'lax1',
      'content-type': 'application/json',
    });
    expect(plain.headers['x-request-id']).toMatch(/^req_lax1-/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const list = JSON.parse(plain.body.toString('utf8')) as { data: { id: string }[] };
    expect(list.data.length).toBeGreaterThan(0);

    const zipped = await call('/v1/projects', { headers: { ...auth, 'accept-encoding': 'br;q=1, gzip;q=0.5' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.body.length);
    expect((JSON.parse(gunzipSync(zipped.body).toString('utf8')) as typeof list).data).toEqual(list.data);
    const refused = await call('/v1/projects', { headers: { ...auth, 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();

    const head = await call('/v1/projects', { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-type']).toBe('application/json');
    expect(head.headers['x-request-id']).toMatch(/^req_lax1-/);

    // A mutation: the contract's answer, uncompressed (small JSON).
    const created = await call('/v1/projects', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify({ name: `door-${Date.now().toString(36)}` }),
    });
    expect(created.status).toBe(201);
    expect(created.headers['content-encoding']).toBeUndefined();
    expect(created.headers['x-meridian-bookmark']).toBeTruthy();
  });

  it('serves tRPC itself too: a session query with the security headers and gzip, a mutation uncompressed, a body past the limit 413', async () => {
    const cookie = await memberCookie(srv.stack.appEnv.DATABASE_URL!, 'bob@globex.test', 'globex');
    const session = { cookie, 'x-region': 'lax1' };
    const input = encodeURIComponent(JSON.stringify({ json: {} }));
    const list = await call(`/api/trpc/projects.list?input=${input}`, {
      headers: { ...session, 'accept-encoding': 'gzip' },
    });
    expect(list.status).toBe(200);
    expect(servedByNext(list)).toBe(false);
    expect(list.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-encoding': 'gzip',
      'x-region': 'lax1',
    });
    expect(list.headers['x-request-id']).toMatch(/^req_lax1-/);
    const listed = JSON.parse(gunzipSync(list.body).toString('utf8')) as {
      result: { data: { json: { data: unknown[] } } };
    };
    expect(listed.result.data.json.data.length).toBeGreaterThan(0);

    const name = `door-trpc-${Date.now().toString(36)}`;
    const mutation = { ...session, 'content-type': 'application/json', 'accept-encoding': 'gzip' };
    const forged = await call('/api/trpc/projects.create', {
      method: 'POST',
      headers: { ...mutation, origin: 'https://elsewhere.example' },
      body: JSON.stringify({ json: { name } }),
    });
    expect(forged.status).toBe(403); // the same-origin guard runs behind the door as before
    const created = await call('/api/trpc/projects.create', {
      method: 'POST',
      headers: { ...mutation, origin: srv.baseUrl },
      body: JSON.stringify({ json: { name } }),
    });
    expect(created.status).toBe(200);
    expect(created.headers['content-encoding']).toBeUndefined();
    expect(created.headers['x-meridian-bookmark']).toBeTruthy();

    const big = await call('/api/trpc/projects.create', {
      method: 'POST',
      headers: { ...mutation, origin: srv.baseUrl },
      body: Buffer.alloc(300_000, 32),
    });
    expect(big.status).toBe(413);
    // Methods the route does not export stay with Next (its 405).
    expect(
      servedByNext(await call(`/api/trpc/projects.list?input=${input}`, { method: 'PUT', headers: session })),
    ).toBe(true);
  });

  it('refuses a body past the limit, declared or streamed, with 413, and the next request on a new connection works', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const declared = await call('/v1/projects', { method: 'POST', headers, body: Buffer.alloc(300_000, 32) });
    expect(declared.status).toBe(413);
    expect(json(declared).error).toMatchObject({ code: 'payload_too_large' });
    expect(declared.headers.connection).toBe('close');
    const streamed = await call('/v1/projects', {
      method: 'POST',
      headers,
      body: Array.from({ length: 30 }, () => Buffer.alloc(10_000, 32)),
    });
    expect(streamed.status).toBe(413);
    for (let i = 0; i < 3; i++) expect((await call('/v1/projects', { headers })).status).toBe(200);
  });

  it('lets a client still sending a refused body finish sending and read its 413 (no reset under its writes)', async () => {
    // A raw client that pauses after the first 300 kB (the door has refused the body by then)
    // and then sends the rest: closing the connection before the rest had arrived would fail
    // those writes (EPIPE or a reset) instead of the client reading the 413 when it is done.
    const { port } = new URL(srv.baseUrl);
    const outcome = await new Promise<{ error?: string; answer: string; closedEarly: boolean }>((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1');
      const received: Buffer[] = [];
      let error: string | undefined;
      let sentAll = false;
      let closedEarly = false;
      socket.on('data', (c: Buffer) => received.push(c));
      socket.on('end', () => (closedEarly = !sentAll));
      socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      socket.on('close', () => resolve({ error, closedEarly, answer: Buffer.concat(received).toString('latin1') }));
      const chunk = `${(10_000).toString(16)}\r\n${' '.repeat(10_000)}\r\n`;
      socket.write(
        'POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n' +
          `Authorization: Bearer ${key}\r\nContent-Type: application/json\r\n\r\n`,
      );
      for (let i = 0; i < 30; i++) socket.write(chunk);
      setTimeout(() => {
        for (let i = 0; i < 30; i++) socket.write(chunk);
        socket.write('0\r\n\r\n', () => (sentAll = true));
      }, 300);
    });
    expect(outcome.closedEarly).toBe(false);
    expect(outcome.error).toBeUndefined();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(outcome.answer).toContain('"code":"payload_too_large"');
  });

  it('closes the connection on a client that keeps sending far past the limit, without answering 5xx', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const outcome = await new Promise<number | 'closed'>((resolve) => {
      const req = http.request(`${srv.baseUrl}/v1/projects`, { method: 'POST', headers }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', () => resolve('closed'));
      const chunk = Buffer.alloc(64 * 1024, 32);
      let sent = 0;
      const more = () => {
        // 8 MiB, far past the limit and what the door discards before closing.
        while (sent < 128 && req.write(chunk)) sent++;
        if (sent < 128) req.once('drain', () => (sent++, more()));
        else req.end();
      };
      more();
    });
    expect([413, 'closed']).toContain(outcome);
  });

  it('answers a Host that makes no URL with a contract 400, never a 500', async () => {
    const bad = await call('/v1/projects', { headers: { host: 'a b', authorization: `Bearer ${key}` } });
    expect(bad.status).toBe(400);
    expect(json(bad).error).toMatchObject({ code: 'invalid_request' });
    expect(json(bad).error!.request_id).toBe(bad.headers['x-request-id']);
  });

  it('leaves OPTIONS, a trailing slash and the OpenAPI document to Next', async () => {
    const options = await call('/v1/projects', { method: 'OPTIONS' });
    expect([options.status, options.headers.allow]).toEqual([204, 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT']);
    const slash = await call('/v1/projects/');
    expect([slash.status, slash.headers.location]).toEqual([308, '/v1/projects']);
    const doc = await call('/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(servedByNext(doc)).toBe(true);
    expect(doc.headers['x-content-type-options']).toBe('nosniff');
  });
});
