// The gateway's own server under hostile clients, in an app process of its own with one slot
// (MERIDIAN_MAX_IN_FLIGHT=1), a 5 s body deadline and 12 open requests per address: a client
// that gives up while queued gives its place back; a directory body past 8 KiB is refused as it
// passes the limit; hundreds of trickling bodies hold no slot; a Host that is no host is 400;
// every answer, redirects included, carries a request ID; the API's answers carry the pages' HSTS.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appServerCommand } from '../../dev/app-server';
import { freePort, waitForHttp } from '../../dev/ports';
import { processLog } from '../../dev/testing/process-logs';
import { contractFetch } from '../../dev/testing/contract';

const faults = inject('faults');
// Long enough that opening 260 connections and the checks made while they trickle all fit in it
// on a busy machine (their 408s come after).
const BODY_TIMEOUT_MS = 5_000;
const PER_PEER = 12;
let port: number;
let app: ChildProcess | undefined;
let key: string;

beforeAll(async () => {
  port = await freePort();
  const cmd = appServerCommand(port);
  app = spawn(process.execPath, cmd.args, {
    env: {
      ...process.env,
      ...faults.appEnv,
      ...cmd.env,
      LOG_LEVEL: 'warn',
      MERIDIAN_MAX_IN_FLIGHT: '1',
      MERIDIAN_QUEUE_WAIT_MS: '4000',
      MERIDIAN_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      MERIDIAN_MAX_PER_PEER: String(PER_PEER),
      // Behind a proxy of ours, so X-Forwarded-Proto (the HSTS case) is believed.
      MERIDIAN_TRUSTED_PROXIES: '1',
      // Its cell registers with the suite's directory, not with itself: that call would take its one slot.
      MERIDIAN_DIRECTORY_URL: faults.baseUrl,
    },
    stdio: ['ignore', processLog('gateway-limits-app'), processLog('gateway-limits-app')],
  });
  await waitForHttp(`http://127.0.0.1:${port}/api/livez`, 120_000);
  key = faults.keys.find((k) => k.org === 'globex' && k.region === 'sfo1')!.key;
}, 180_000);

afterAll(async () => {
  if (app && app.exitCode === null) {
    app.kill('SIGTERM');
    await new Promise((r) => app!.once('exit', r));
  }
});

interface Raw {
  /** Everything received so far, as latin1. */
  text(): string;
  write(s: string | Buffer): void;
  /** Resolves with what arrived once `pattern` matches it (rejects after `ms`). */
  waitFor(pattern: RegExp, ms: number): Promise<string>;
  destroy(): void;
  closed: Promise<void>;
}

/** A raw TCP client (from `localAddress`, any 127.0.0.x on loopback). */
function raw(localAddress = '127.0.0.1'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    const chunks: Buffer[] = [];
    const waiters = new Set<() => void>();
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      for (const w of waiters) w();
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    const text = () => Buffer.concat(chunks).toString('latin1');
    socket.once('connect', () =>
      resolve({
        text,
        write: (s) => void socket.write(s),
        destroy: () => socket.destroy(),
        closed,
        waitFor: (pattern, ms) =>
          new Promise((res, rej) => {
            const check = () => {
              if (!pattern.test(text())) return;
              clearTimeout(timer);
              waiters.delete(check);
              res(text());
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rej(new Error(`no ${pattern} within ${ms} ms; got ${JSON.stringify(text().slice(0, 300))}`));
            }, ms);
            waiters.add(check);
            void closed.then(() => setTimeout(check, 0));
            check();
          }),
      }),
    );
    socket.once('error', reject);
  });
}

const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1] ?? 0);
const header = (answer: string, name: string) =>
  new RegExp(`\\r\\n${name}: ([^\\r]*)\\r\\n`, 'i').exec(answer.split('\r\n\r\n')[0] + '\r\n')?.[1];

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await contractFetch(`http://127.0.0.1:${port}${path}`, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe('the gateway under hostile clients', () => {
  it('gives back the place of a client that gave up while queued: the next request is served at once', async () => {
    // The one slot is held by a create that waits on a lock of ours on the projects table.
    const admin = new pg.Client({ connectionString: faults.adminPrimary });
    admin.on('error', () => {}); // a node stopping under it: the next call fails instead
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE projects IN SHARE MODE');
    const holder = contractFetch(`http://127.0.0.1:${port}/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `held-${Date.now().toString(36)}` }),
    });
    let early: string | undefined;
    // holder's own failure is awaited below; this look at it early must not be an unhandled one.
    void holder.then(async (r) => (early = `${r.status} ${await r.clone().text()}`)).catch(() => {});
    try {
      for (let i = 0; ; i++) {
        const { rows } = await admin.query(
          `SELECT 1 FROM pg_locks WHERE NOT granted AND relation = 'public.projects'::regclass`,
        );
        if (rows.length > 0) break;
        if (early !== undefined || i > 200) {
          const act = await admin.query(
            `SELECT usename, state, wait_event_type, left(query, 120) AS q FROM pg_stat_activity`,
          );
          throw new Error(`the create never waited on the lock: ${early} ${JSON.stringify(act.rows)}`);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      // A request queued behind it whose client goes away.
      const quitter = await raw();
      quitter.write(`GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 300));
      expect(quitter.text()).toBe(''); // still queued
      quitter.destroy();
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await admin.query('COMMIT');
      await admin.end();
    }
    expect((await holder).status).toBe(201);
    const t = performance.now();
    const next = await get('/v1/projects', { authorization: `Bearer ${key}` });
    expect(next.status).toBe(200);
    // At once: a place the quitter kept would cost the whole queue wait (4 s) first.
    expect(performance.now() - t).toBeLessThan(2_500);
  });

  it('refuses a chunked directory body with 413 as its 8,193rd byte arrives, at every directory door', async () => {
    const doors = [
      ['/api/v1/directory/resolve', 'application/json'],
      ['/internal/v1/cells/sfo1/heartbeat', 'application/json'],
      ['/sign-in/handoff/start', 'application/x-www-form-urlencoded'],
    ];
    for (const [path, type] of doors) {
      const c = await raw();
      c.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: ${type}\r\n` +
          'Transfer-Encoding: chunked\r\n\r\n',
      );
      c.write(`2000\r\n${'a'.repeat(8192)}\r\n`);
      await new Promise((r) => setTimeout(r, 400));
      expect(c.text(), path).toBe(''); // 8 KiB is still within the limit
      c.write('1\r\na\r\n');
      const answer = await c.waitFor(/\r\n\r\n.*"request_id"/s, 3_000);
      expect(status(answer), path).toBe(413);
      expect(answer, path).toContain('"code":"payload_too_large"');
      expect(header(answer, 'x-request-id'), path).toMatch(/^req_/);
      c.destroy();
    }
    // A small body still reaches the directory (read by the gateway, replayed to the route).
    const found = await fetch(`http://127.0.0.1:${port}/api/v1/directory/resolve`, {
      method: 'POST',
      headers: { host: `localhost:${port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'globex' }),
    });
    expect(found.status).toBe(200);
    const started = await fetch(`http://127.0.0.1:${port}/sign-in/handoff/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'region=sfo1&next=%2Farc',
      redirect: 'manual',
    });
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toContain('/sign-in/handoff/issue');
  });

  it('lets 260 trickling bodies hold no slot: a normal request gets 200, each trickler 408, a 13th from one address 429', async () => {
    // 22 addresses × 12: every trickler within its address's cap.
    const addresses = Array.from({ length: 22 }, (_, i) => `127.0.0.${i + 2}`);
    const targets = ['/v1/projects', '/arc', '/api/v1/directory/resolve', '/api/trpc/projects.create'];
    const tricklers = await Promise.all(
      Array.from({ length: 260 }, async (_, i) => {
        const c = await raw(addresses[i % addresses.length]);
        c.write(
          `POST ${targets[i % targets.length]} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        );
        return c;
      }),
    );
    const drip = setInterval(() => {
      for (const c of tricklers) c.write(' ');
    }, 300);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const normal = await get('/v1/projects', { authorization: `Bearer ${key}` });
      expect(normal.status).toBe(200);
      // The cap of one address that is full already.
      const extra = await raw(addresses[0]);
      extra.write(`GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      const refused = await extra.waitFor(/"request_id"/, 3_000);
      expect(status(refused)).toBe(429);
      expect(refused).toContain('"code":"rate_limited"');
      expect(header(refused, 'retry-after')).toBe('1');
      extra.destroy();
      const answers = await Promise.all(tricklers.map((c) => c.waitFor(/"request_id"/, 20_000)));
      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(status(a), (statuses.get(status(a)) ?? 0) + 1);
      expect(Object.fromEntries(statuses)).toEqual({ 408: 260 });
      expect(answers[0]).toContain('"code":"request_timeout"');
    } finally {
      clearInterval(drip);
      for (const c of tricklers) c.destroy();
    }
    // Every place was given back: the address that was full is served again.
    const after = await raw(addresses[0]);
    after.write(
      `GET /v1/projects HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
    );
    expect(status(await after.waitFor(/^HTTP\/1\.1 \d{3} /, 5_000))).toBe(200);
    after.destroy();
  });

  it('answers a Host that is not a host with 400, at the API door and for pages', async () => {
    for (const path of ['/v1/me', '/sign-in']) {
      const c = await raw();
      c.write(
        `GET ${path} HTTP/1.1\r\nHost: localhost:${port}/v1/atlas/regions?\r\n` +
          `Authorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      );
      const answer = await c.waitFor(/"request_id"/, 5_000);
      expect(status(answer), path).toBe(400);
      expect(answer, path).toContain('"code":"invalid_request"');
      c.destroy();
    }
  });

  it('puts a request ID on every answer: a trailing slash redirect, a 404 page, readiness', async () => {
    const slash = await get('/v1/atlas/moves/');
    expect(slash.status).toBe(308);
    expect(slash.headers.get('x-request-id')).toMatch(/^req_/);
    const missing = await get('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await get('/api/readyz')).headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('sends the API door answers the same HSTS as pages, over HTTPS only', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const page = await get('/sign-in', https);
    const api = await get('/v1/projects', { ...https, authorization: `Bearer ${key}` });
    expect(api.status).toBe(200);
    expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    expect(api.headers.get('strict-transport-security')).toBe(page.headers.get('strict-transport-security'));
    const plain = await get('/v1/projects', { authorization: `Bearer ${key}` });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect((await get('/sign-in')).headers.get('strict-transport-security')).toBeNull();
  });
});
