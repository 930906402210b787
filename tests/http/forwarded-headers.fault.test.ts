// What a client says in X-Forwarded-Host / X-Forwarded-Proto, with no trusted proxy in front
// (MERIDIAN_TRUSTED_PROXIES=0, the fault suite's app): nothing. Not the region (both doors), not
// the global address (where no password may be posted), not the origin the CSRF check compares
// with, not cookies' Secure flag, not a moved workspace's fence. And a sign-in's `next`, however
// dressed up, never sends the browser off this origin.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { hashPassword } from '../../server/auth/password';
import { resetEnvCache } from '../../server/env';
import { newId } from '../../server/ids';
import { checkRaw } from '../../dev/testing/contract';

const f = () => inject('faults');
const port = () => new URL(f().baseUrl).port;
const at = (label?: string) => `${label ? `${label}.` : ''}localhost:${port()}`;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request to the suite's app as if sent to `host` (Node's resolver knows no `*.localhost`). */
function send(method: string, path: string, host: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(`${f().baseUrl}${path}`, { method, headers: { host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        try {
          checkRaw(method, path, res.statusCode ?? 0, res.headers, text);
        } catch (e) {
          reject(e);
          return;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const cookiesOf = (a: Answer) => (a.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).join('; ');
const json = <T>(a: Answer) => JSON.parse(a.body) as T;

/** Auth.js's credentials sign-in at `host`, as its browser client posts it. */
async function postPassword(host: string, email: string, password: string, extra: Record<string, string> = {}) {
  const csrf = await send('GET', '/api/auth/csrf', host, extra);
  const { csrfToken } = json<{ csrfToken: string }>(csrf);
  const form = new URLSearchParams({ csrfToken, email, password, callbackUrl: '/arc' });
  const res = await send(
    'POST',
    '/api/auth/callback/credentials',
    host,
    {
      'content-type': 'application/x-www-form-urlencoded',
      'x-auth-return-redirect': '1',
      cookie: cookiesOf(csrf),
      ...extra,
    },
    form.toString(),
  );
  const url = new URL(json<{ url: string }>(res).url, `http://${host}`);
  return { res, error: url.searchParams.get('error'), code: url.searchParams.get('code') };
}

// A user of a workspace that has moved from sfo1 to lax1: its home is lax1 (what the move's
// handover writes), and it may still use both regions.
const PASSWORD = `forwarded-${Date.now()}-pw`;
let user: { id: string; email: string };
let orgId: string;
let session: string;

beforeAll(async () => {
  process.env.AUTH_SECRET = f().authSecret;
  resetEnvCache();
  user = { id: newId('usr'), email: `forwarded-${Date.now()}@example.test` };
  orgId = newId('org');
  const slug = `fwd-${Date.now().toString(36)}`;
  await query(
    f().adminPrimary,
    `INSERT INTO users (id, email, name, password_hash, updated_at) VALUES ($1, $2, 'Forwarded', $3, now())`,
    [user.id, user.email, await hashPassword(PASSWORD)],
  );
  await query(
    f().adminPrimary,
    `INSERT INTO organizations (id, slug, name, default_region, home_region, updated_at)
     VALUES ($1, $2, 'Moved away', 'lax1', 'lax1', now())`,
    [orgId, slug],
  );
  await query(f().adminPrimary, `INSERT INTO organization_regions (org_id, region) VALUES ($1, 'sfo1'), ($1, 'lax1')`, [
    orgId,
  ]);
  await query(f().adminPrimary, `INSERT INTO memberships (user_id, org_id, role) VALUES ($1, $2, 'admin')`, [
    user.id,
    orgId,
  ]);
  session = await sessionCookie(user.id, orgId);
  // Its session is fenced at sfo1 once the gateway sees the rows (replicas replay them).
  await eventually(
    async () => (await send('GET', '/v1/projects', at('sfo1'), { cookie: session })).status === 421,
    20_000,
    'the moved workspace fenced at sfo1',
  );
}, 60_000);

afterAll(async () => {
  await query(f().adminPrimary, `DELETE FROM organizations WHERE id = $1`, [orgId]).catch(() => {});
  await query(f().adminPrimary, `DELETE FROM users WHERE id = $1`, [user.id]).catch(() => {});
});

describe('with no trusted proxy, a client-sent X-Forwarded-Host / -Proto', () => {
  it('does not pick the region, on the API door or through Next', async () => {
    for (const path of ['/v1/projects', '/health/region']) {
      const plain = await send('GET', path, at('sfo1'));
      const forged = await send('GET', path, at('sfo1'), { 'x-forwarded-host': at('lax1') });
      expect(plain.headers['x-region'], path).toBe('sfo1');
      expect(forged.headers['x-region'], path).toBe('sfo1');
    }
  });

  it('does not let a moved workspace’s old-region session claim the new region (421, not 200)', async () => {
    const forged = await send('GET', '/v1/projects', at('sfo1'), { cookie: session, 'x-forwarded-host': at('lax1') });
    expect([forged.status, json<{ error: { code: string; region: string } }>(forged).error]).toMatchObject([
      421,
      { code: 'wrong_region', region: 'lax1' },
    ]);
    // At its home the same session works.
    expect((await send('GET', '/v1/projects', at('lax1'), { cookie: session })).status).toBe(200);
  });

  it('does not make a forged Origin pass the CSRF check', async () => {
    const ok = { cookie: session, 'content-type': 'application/json' };
    // The body is invalid on purpose: past the origin check the answer is 400, and nothing is made.
    const own = await send('POST', '/v1/projects', at('lax1'), { ...ok, origin: `http://${at('lax1')}` }, '{}');
    expect(own.status).toBe(400);
    for (const [origin, forwarded] of [
      [`http://evil.example:${port()}`, { 'x-forwarded-host': `evil.example:${port()}` }],
      [`https://${at('lax1')}`, { 'x-forwarded-proto': 'https' }],
    ] as const) {
      const res = await send('POST', '/v1/projects', at('lax1'), { ...ok, origin, ...forwarded }, '{}');
      expect([res.status, json<{ error: { code: string } }>(res).error.code], origin).toEqual([403, 'forbidden']);
    }
  });

  it('does not give cookies the Secure flag (or Secure names) over plain HTTP', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const csrf = await send('GET', '/api/auth/csrf', at('sfo1'), https);
    const authCookies = (csrf.headers['set-cookie'] ?? []).join('\n');
    expect(authCookies).toMatch(/^authjs\.csrf-token=/m);
    expect(authCookies).not.toMatch(/Secure/i);
    const start = await send('GET', '/sign-in/handoff/start?region=sfo1', at(), https);
    expect(start.status).toBe(303);
    const state = (start.headers['set-cookie'] ?? []).find((c) => c.startsWith('meridian_handoff='));
    expect(state).toBeDefined();
    expect(state).not.toMatch(/Secure/i);
  });

  it('does not turn a region’s host into the global address, or the global address into a region', async () => {
    // At sfo1 claiming to be the global address: the password is checked as at any region.
    const atRegion = await postPassword(at('sfo1'), user.email, PASSWORD, { 'x-forwarded-host': at() });
    expect([atRegion.res.status, atRegion.error]).toEqual([200, null]);
    // At the global address claiming to be sfo1: no password is taken here, whatever it says.
    const atGlobal = await postPassword(at(), user.email, PASSWORD, { 'x-forwarded-host': at('sfo1') });
    expect([atGlobal.error, atGlobal.code]).toEqual(['CredentialsSignin', 'sign_in_at_region']);
    const page = await send('GET', '/sign-in', at(), { 'x-forwarded-host': at('sfo1') });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('type="password"');
  });
});

describe('after sign-in and through the hand-over, `next`', () => {
  const NEXTS = ['/.//evil.example/x', '/%2e//evil.example/x', '/a/..//evil.example/x', '/./\\evil.example/x'];

  /** Where a Location sends a browser that asked `host`. */
  const target = (a: Answer, host: string) => new URL(a.headers.location!, `http://${host}`);

  it('is never rendered for the sign-in form as a path off this origin', async () => {
    for (const next of NEXTS) {
      const page = await send('GET', `/sign-in?${new URLSearchParams({ callbackUrl: next })}`, at('sfo1'));
      expect(page.status).toBe(200);
      // The form's `next` prop, in the page's flight data (the page's own URL is there too).
      expect(/\\"next\\":\\"([^\\]*)\\"/.exec(page.body)?.[1], next).toBe('/arc');
    }
  });

  it('never sends the browser off the origin, at any step (start, issue, finish)', async () => {
    for (const next of NEXTS) {
      // 1. The global address starts the hand-over to sfo1.
      const start = await send('GET', `/sign-in/handoff/start?${new URLSearchParams({ region: 'sfo1', next })}`, at());
      expect(start.status).toBe(303);
      const issueUrl = target(start, at());
      expect(issueUrl.host).toBe(at('sfo1'));
      const state = issueUrl.searchParams.get('state')!;
      // 2. sfo1, signed in there, issues a code: asked with the raw `next` too, not only start's.
      // (The page's form POSTs it, same origin: the GET writes nothing.)
      const issue = await send(
        'POST',
        '/sign-in/handoff/issue',
        at('sfo1'),
        {
          cookie: await sessionCookie(user.id, null),
          origin: `http://${at('sfo1')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        new URLSearchParams({ state, next }).toString(),
      );
      expect(issue.status, issue.body).toBe(303);
      const finishUrl = target(issue, at('sfo1'));
      expect(finishUrl.host).toBe(at());
      // 3. The global address takes the code with the browser's state cookie, and sends it on.
      const finish = await send(
        'GET',
        `/sign-in/handoff/finish?${new URLSearchParams({ code: finishUrl.searchParams.get('code')!, next })}`,
        at(),
        { cookie: cookiesOf(start) },
      );
      expect(finish.status).toBe(303);
      expect(finish.headers['set-cookie']?.join('\n')).toMatch(/authjs\.session-token=/);
      const landed = target(finish, at());
      expect(landed.host, `${next} → ${finish.headers.location}`).toBe(at());
      expect(finish.headers.location!.startsWith('//')).toBe(false);
    }
  });
});
