// One delivery attempt over real HTTP (send.ts): the deadline ends an attempt whose receiver never
// answers, and the connection is closed, not left to the receiver.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPT_TIMEOUT_MS, postWebhook } from './send';

let server: http.Server;
let base = '';
const sockets = new Set<Socket>();
const closed: Promise<void>[] = [];

beforeAll(async () => {
  // Takes the request and never answers; says when the sender hangs up.
  server = http.createServer(() => {});
  server.on('connection', (s) => {
    sockets.add(s);
    closed.push(new Promise((r) => s.once('close', () => r())));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

describe('a webhook attempt', () => {
  it('is 10 s at most by default', () => {
    expect(ATTEMPT_TIMEOUT_MS).toBe(10_000);
  });

  it('ends at its deadline when the receiver never answers, and hangs up', async () => {
    const r = await postWebhook(`${base}/hook`, { 'webhook-id': 'msg_1' }, '{}', {
      allowLoopback: true,
      timeoutMs: 300,
    });
    expect(r).toMatchObject({ ok: false, status: null, response: null, error: 'timed out after 300 ms' });
    expect(r.latencyMs).toBeGreaterThanOrEqual(250); // timers are ms-coarse: a little early is the clock, not the code
    expect(closed).toHaveLength(1);
    await closed[0]; // the sender closed the connection: nothing is left open on either side
  });
});
