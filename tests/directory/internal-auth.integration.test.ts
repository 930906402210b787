// /internal/v1 against callers without a cell's key, over real HTTP (the directory's route behind
// a loopback server that records the socket's peer, as server/http/main.ts does): every refusal
// has one body, a refused call costs the primary no transaction, and a peer refused too often
// gets 429 while other peers are still served.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoDatabase } from '../../dev/testing/app';
import { settledStats } from '../../dev/testing/settled-stats';
import { trustPeerHeader } from '../../server/net/client-address';
import { directoryServer, provisionKeys, signedRequest } from './harness';

let urls: { primary: string; replicas: Record<string, string> };
let directory: Awaited<ReturnType<typeof directoryServer>>;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error?: { code: string; message: string; request_id: string } } & Record<string, unknown>;
}

/** Sends `req` (built by the harness) to the directory over HTTP from the local address `from`. */
async function send(req: Request, from = '127.0.0.1'): Promise<Answer> {
  const url = new URL(req.url);
  const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
  const target = new URL(directory.url);
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: target.hostname,
        port: target.port,
        localAddress: from,
        method: req.method,
        path: url.pathname + url.search,
        headers: { ...Object.fromEntries(req.headers), ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} });
        });
      },
    );
    r.on('error', reject);
    r.end(body);
  });
}

const reserve = (slug: string) => `/internal/v1/workspaces/${slug}/reserve`;
const now = () => Math.floor(Date.now() / 1000);

/** One of each way a call can fail to be authentic (the replay is made from a valid call). */
async function refusedKinds(from: string): Promise<Record<string, Answer>> {
  const valid = signedRequest('lax1', 'POST', reserve(`replayed-${Date.now().toString(36)}`));
  const copy = valid.clone();
  expect((await send(valid, from)).status).toBe(200);
  return {
    malformed: await send(
      new Request(`http://localhost:3000${reserve('kinds')}`, { method: 'POST', headers: { host: 'localhost:3000' } }),
      from,
    ),
    wrongKey: await send(signedRequest('lax1', 'POST', reserve('kinds'), undefined, { key: randomBytes(32) }), from),
    tampered: await send(
      signedRequest('lax1', 'POST', reserve('kinds'), undefined, { signedPath: reserve('other') }),
      from,
    ),
    stale: await send(signedRequest('lax1', 'POST', reserve('kinds'), undefined, { timestamp: now() - 301 }), from),
    future: await send(signedRequest('lax1', 'POST', reserve('kinds'), undefined, { timestamp: now() + 301 }), from),
    unknownVersion: await send(signedRequest('lax1', 'POST', reserve('kinds'), undefined, { version: 7 }), from),
    replayed: await send(copy, from),
  };
}

/** The primary database's rolled-back transactions and the directory tables' reads and writes. */
async function primaryWork(): Promise<{ rollbacks: number; directoryTables: number }> {
  const [row] = await settledStats<{ rollbacks: string; tables: string | null }>(
    urls.primary,
    `SELECT (SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database())::text AS rollbacks,
            (SELECT sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0) + n_tup_ins + n_tup_del)
               FROM pg_stat_user_tables WHERE schemaname = 'directory')::text AS tables`,
  );
  return { rollbacks: Number(row!.rollbacks), directoryTables: Number(row!.tables) };
}

beforeAll(async () => {
  ({ urls } = await useDemoDatabase('internal_auth'));
  trustPeerHeader();
  provisionKeys();
  directory = await directoryServer();
  const entry = { name: 'Los Angeles', address: 'http://lax1.localhost:3000', status: 'active' };
  expect((await send(signedRequest('lax1', 'PUT', '/internal/v1/regions/lax1', entry), '127.0.0.9')).status).toBe(200);
});

afterAll(async () => {
  await directory?.close();
});

describe('/internal/v1 refusals', () => {
  it('every kind of refusal has the same 401 body, except its request_id', async () => {
    const kinds = await refusedKinds('127.0.0.2');
    const bodies = Object.entries(kinds).map(([kind, a]) => {
      expect(a.status, kind).toBe(401);
      expect(a.body.error?.request_id, kind).toMatch(/^req_/);
      return JSON.stringify({ ...a.body, error: { ...a.body.error, request_id: undefined } });
    });
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toEqual({ error: { code: 'invalid_signature', message: expect.any(String) } });
  });

  it('calls that are not authentic cost the primary no transaction', async () => {
    const before = await primaryWork();
    for (let i = 0; i < 4; i++) {
      const from = '127.0.0.4';
      const unsigned = new Request(`http://localhost:3000${reserve('forged')}`, {
        method: 'POST',
        headers: { host: 'localhost:3000' },
      });
      expect((await send(unsigned, from)).status).toBe(401);
      const forged = [
        signedRequest('lax1', 'POST', reserve('forged'), undefined, { key: randomBytes(32) }),
        signedRequest(
          'sfo1',
          'PUT',
          '/internal/v1/regions/sfo1',
          { name: 'X', address: 'http://x.test', status: 'down' },
          {
            key: randomBytes(32),
          },
        ),
        signedRequest('lax1', 'POST', reserve('forged'), undefined, { timestamp: now() - 301 }),
        signedRequest('lax1', 'POST', reserve('forged'), undefined, { signedBody: '{"other":1}' }),
      ];
      for (const req of forged) {
        const a = await send(req, from);
        expect(a.status, JSON.stringify(a.body)).toBe(401);
      }
    }
    const after = await primaryWork();
    expect(after).toEqual(before);
  }, 60_000);

  it('a peer refused past the limit gets 429 until the window passes; other peers are still served', async () => {
    const from = '127.0.0.3';
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const forged = signedRequest('lax1', 'POST', reserve('limited'), undefined, { key: randomBytes(32) });
      statuses.push((await send(forged, from)).status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Even a valid call from that peer is refused now, before any work; another peer's is not.
    const blocked = await send(signedRequest('lax1', 'POST', reserve('limited-ok')), from);
    expect([blocked.status, blocked.body.error?.code]).toEqual([429, 'rate_limited']);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.headers['ratelimit-policy']).toContain('directory_internal_fail_peer');
    expect((await send(signedRequest('lax1', 'POST', reserve('limited-ok')), '127.0.0.5')).status).toBe(200);
  });
});
