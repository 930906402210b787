import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRequestId } from './request-id';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    ensureRequestId(res, 'sfo1');
    if (req.url === '/own') res.setHeader('X-Request-Id', 'req_own');
    if (req.url === '/head') return void res.writeHead(200, { 'x-request-ID': 'req_head' }).end();
    if (req.url === '/raw') return void res.writeHead(200, ['X-Request-Id', 'req_raw']).end();
    if (req.url === '/redirect') return void res.writeHead(308, { Location: '/' }).end();
    res.end('implicit headers');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('ensureRequestId', () => {
  it('adds a request ID to an answer without one, and keeps one set however it was set', async () => {
    const id = async (p: string) => (await fetch(`${base}${p}`, { redirect: 'manual' })).headers.get('x-request-id');
    expect(await id('/redirect')).toMatch(/^req_sfo1-\d+-[0-9a-f]{12}$/);
    expect(await id('/implicit')).toMatch(/^req_sfo1-/);
    expect(await id('/own')).toBe('req_own');
    expect(await id('/head')).toBe('req_head');
    expect(await id('/raw')).toBe('req_raw');
  });
});
