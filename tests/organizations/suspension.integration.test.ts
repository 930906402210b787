// A suspended organization over real HTTP (a loopback server in front of the API door and the
// hand-over and directory route handlers, as server/http/main.ts serves them): its API keys,
// browser sessions and sign-in hand-over answer 403 organization_suspended, and the directory
// resolves its slug like an unknown one; reinstated, all of it works again. Also measured: how
// long a key keeps working after a suspension written straight into the database elsewhere.
import { NOTICED_WITHIN_MS } from '../../dev/testing/eventually';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { query, waitForReplay } from '../../dev/testing/db';
import { handleRest } from '../../server/api/adapters/rest';
import { HANDOFF_STATE_COOKIE } from '../../server/auth/handoff';
import { registerWithDirectory } from '../../server/cell/registration';
import { primary } from '../../server/db/client';
import { rendezvous } from '../../server/directory/workspace-lookup';
import { serveApi } from '../../server/http/api-door';
import { PEER_HEADER } from '../../server/net/client-address';
import { setOrganizationSuspended } from '../../server/organizations/suspension';
import { registeredCell } from '../directory/harness';
import { checkRaw } from '../../dev/testing/contract';

let urls: { primary: string; replicas: Record<string, string> };
let base: string;
let server: http.Server;
let directory: Awaited<ReturnType<typeof registeredCell>>;
let acmeId: string;
let aliceCookie: string;
let acmeKey: string;

type Handler = (req: Request) => Promise<Response>;

async function gateway(): Promise<http.Server> {
  const finish = (await import('../../app/sign-in/handoff/finish/route')).GET as Handler;
  const issue = (await import('../../app/sign-in/handoff/issue/route')).POST as Handler;
  const resolve = (await import('../../app/api/v1/directory/resolve/route')).POST as Handler;
  const routes: Record<string, Handler> = {
    '/sign-in/handoff/finish': finish,
    '/sign-in/handoff/issue': issue,
    '/api/v1/directory/resolve': resolve,
  };
  return http.createServer((req, res) => {
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
    const handler = routes[(req.url ?? '/').split('?')[0]!];
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!handler) return void serveApi(req, res, handleRest, Buffer.concat(chunks));
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const body = Buffer.concat(chunks);
      void handler(
        new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers,
          body: body.length ? body : undefined,
        }),
      ).then(async (r) => {
        const out = new Headers(r.headers);
        res.writeHead(r.status, Object.fromEntries(out));
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error?: { code: string } } & Record<string, unknown>;
}

function call(
  method: string,
  path: string,
  o: { host?: string; headers?: Record<string, string>; body?: unknown; form?: Record<string, string> } = {},
): Promise<Answer> {
  const port = new URL(base).port;
  const text = o.form
    ? new URLSearchParams(o.form).toString()
    : o.body === undefined
      ? undefined
      : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const r = http.request(
      `${base}${path}`,
      {
        method,
        headers: {
          host: `${o.host ?? 'localhost'}:${port}`,
          ...(text ? { 'content-type': o.form ? 'application/x-www-form-urlencoded' : 'application/json' } : {}),
          ...o.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = Buffer.concat(chunks).toString('utf8');
          let body = {};
          try {
            body = t ? JSON.parse(t) : {};
          } catch {
            // a redirect's empty or HTML body
          }
          try {
            checkRaw(method, path, res.statusCode ?? 0, res.headers, t);
          } catch (e) {
            reject(e);
            return;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    r.on('error', reject);
    r.end(text);
  });
}

const withKey = () =>
  call('GET', '/v1/me', { host: 'sfo1.localhost', headers: { authorization: `Bearer ${acmeKey}` } });
const withSession = () => call('GET', '/v1/me', { host: 'sfo1.localhost', headers: { cookie: aliceCookie } });
const lookUp = () => call('POST', '/api/v1/directory/resolve', { body: { slug: 'acme' } });
const STATE = 'S'.repeat(43);
/** The hand-over's first half at sfo1's host (the page's POST, same origin): 303 to the global
 * address with a code (or a refusal). */
const issue = () =>
  call('POST', '/sign-in/handoff/issue', {
    host: 'sfo1.localhost',
    headers: { cookie: aliceCookie, origin: `http://sfo1.localhost:${new URL(base).port}` },
    form: { state: STATE, next: '/arc' },
  });
/** Its second half at the global address, with the browser's state cookie. */
const finish = (location: string) => {
  const u = new URL(location);
  return call('GET', `${u.pathname}${u.search}`, { headers: { cookie: `${HANDOFF_STATE_COOKIE}=${STATE}` } });
};

async function setStatusInDatabase(status: 'active' | 'suspended'): Promise<void> {
  await query(urls.primary, 'UPDATE organizations SET status = $1::"OrganizationStatus" WHERE id = $2', [
    status,
    acmeId,
  ]);
}

/** Milliseconds until `probe` answers `status`, polling (at most `limitMs`). */
async function msUntil(probe: () => Promise<Answer>, status: number, limitMs = 10_000): Promise<number> {
  const t = Date.now();
  while (Date.now() - t < limitMs) {
    if ((await probe()).status === status) return Date.now() - t;
    await new Promise((r) => setTimeout(r, 10));
  }
  return Infinity;
}

beforeAll(async () => {
  let creds;
  ({ credentials: creds, urls } = await useDemoDatabase('suspension'));
  directory = await registeredCell();
  acmeId = (await primary().organization.findUniqueOrThrow({ where: { slug: 'acme' } })).id;
  const alice = await primary().user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  aliceCookie = await sessionCookie(alice.id, acmeId);
  acmeKey = creds.api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;
  for (const url of Object.values(urls.replicas)) await waitForReplay(urls.primary, url);
  server = await gateway();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((ok) => server?.close(() => ok()));
  await directory?.close();
});

describe('a suspended organization', () => {
  it('a suspension written into the database elsewhere stops its key within moments (measured)', async () => {
    expect((await withKey()).status).toBe(200); // cached now
    await setStatusInDatabase('suspended');
    const suspendedAfter = await msUntil(withKey, 403);
    await setStatusInDatabase('active');
    const reinstatedAfter = await msUntil(withKey, 200);
    console.log(`[suspension] key refused ${suspendedAfter} ms after the commit; accepted ${reinstatedAfter} ms after`);
    expect(suspendedAfter).toBeLessThan(NOTICED_WITHIN_MS);
    expect(reinstatedAfter).toBeLessThan(NOTICED_WITHIN_MS);
  });

  it('answers 403 organization_suspended to its key, session and hand-over, and the directory forgets it', async () => {
    // Before: everything works.
    expect((await withKey()).status).toBe(200);
    expect((await withSession()).status).toBe(200);
    const before = await lookUp();
    expect(before.status).toBe(200);
    expect(before.body.region).toBe('sfo1');
    const issued = await issue();
    expect(issued.status).toBe(303);
    const pending = await issue(); // a code issued before the suspension, used after it
    expect(pending.status).toBe(303);
    expect((await finish(issued.headers.location!)).status).toBe(303);

    await setOrganizationSuspended(
      { requestId: 'req_test', gatewayRegion: 'sfo1', org: null, consistency: {}, response: { headers: {} } },
      null,
      acmeId,
      true,
    );
    for (const [name, answer] of [
      ['key', await withKey()],
      ['session', await withSession()],
      ['hand-over issue', await issue()],
      ['hand-over finish', await finish(pending.headers.location!)],
    ] as const) {
      expect([name, answer.status, answer.body.error?.code]).toEqual([name, 403, 'organization_suspended']);
    }
    // The directory answers as for an unknown slug: the decoy its keyed hash picks, same shape.
    const regions = await primary().directoryRegion.findMany({ orderBy: { code: 'asc' } });
    const after = await lookUp();
    expect(after.status).toBe(200);
    expect(Object.keys(after.body).sort()).toEqual(Object.keys(before.body).sort());
    expect(after.body.region).toBe(rendezvous('acme', regions).code);
    expect((await primary().directoryWorkspace.findUniqueOrThrow({ where: { slug: 'acme' } })).status).toBe('reserved');
    // The slug stays held: another region cannot take it.
    await registerWithDirectory(); // the heartbeat keeps it suspended
    expect((await lookUp()).body.region).toBe(after.body.region);

    await setOrganizationSuspended(
      { requestId: 'req_test2', gatewayRegion: 'sfo1', org: null, consistency: {}, response: { headers: {} } },
      null,
      acmeId,
      false,
    );
    expect((await withKey()).status).toBe(200);
    expect((await withSession()).status).toBe(200);
    expect((await lookUp()).body.region).toBe('sfo1');
    expect((await issue()).status).toBe(303);
  });
});
