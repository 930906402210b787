// Single sign-on over real HTTP against a real OpenID provider (oidc-provider, started here): the
// authorization code flow followed hop by hop with a cookie jar per host, as a browser would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../dev/demo/seed';
import { callerFor, rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { startIdentityProvider, type IdentityProvider } from '../../dev/oidc/identity-provider';
import { checkCredentials } from '../../server/auth/sign-in';
import { resetEnvCache } from '../../server/env';
import { PEER_HEADER } from '../../server/net/client-address';
import { SSO_COOKIE } from '../../server/sso/flow';
import { sealSigningSecret } from '../../server/webhooks/secrets';
import { newId } from '../../server/ids';

type Handler = (req: Request) => Promise<Response>;

const ACME_CLIENT = { clientId: 'meridian-acme', clientSecret: 'acme-client-secret-0123456789abcdef' };
const PLATFORM_CLIENT = { clientId: 'meridian-platform', clientSecret: 'platform-client-secret-0123456789ab' };
const REGIONS = ['sfo1', 'lax1', 'ams1'];
const callbacks = REGIONS.map((r) => `http://${r}.localhost:3000/sign-in/sso/callback`);

let idp: IdentityProvider;
let gateway: http.Server;
let gatewayPort: number;
let primaryUrl: string;
let acmeId: string;
let aliceCookie: string;
let demo: DemoCredentials;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  url: URL;
}

/** A browser: a cookie jar per host; `*.localhost:3000` is the gateway under test. */
class Browser {
  readonly jar = new Map<string, Map<string, string>>();

  cookies(host: string): string {
    return [...(this.jar.get(host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  send(method: string, raw: string, form?: Record<string, string>): Promise<Answer> {
    const url = new URL(raw);
    const toGateway = url.hostname.endsWith('localhost') && url.port === '3000';
    const body = form ? new URLSearchParams(form).toString() : undefined;
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        toGateway ? `http://127.0.0.1:${gatewayPort}${url.pathname}${url.search}` : url,
        {
          method,
          headers: {
            host: url.host,
            cookie: this.cookies(url.host),
            ...(form ? { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin } : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            for (const c of res.headers['set-cookie'] ?? []) {
              const [pair] = c.split(';');
              const eq = pair!.indexOf('=');
              const jar = this.jar.get(url.host) ?? new Map<string, string>();
              const value = pair!.slice(eq + 1);
              if (/max-age=0/i.test(c) || value === '') jar.delete(pair!.slice(0, eq));
              else jar.set(pair!.slice(0, eq), value);
              this.jar.set(url.host, jar);
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, url });
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Follows redirects until one leads to `stop` (not followed) or a page answers. */
  async follow(first: Answer, stop?: (next: URL) => boolean): Promise<{ last: Answer; next?: URL }> {
    let a = first;
    for (let i = 0; i < 20; i++) {
      if (a.status < 300 || a.status >= 400) return { last: a };
      const next = new URL(a.headers.location!, a.url);
      if (stop?.(next)) return { last: a, next };
      a = await this.send('GET', next.href);
    }
    throw new Error('too many redirects');
  }
}

const isCallback = (u: URL) => u.pathname === '/sign-in/sso/callback';

/**
 * From "Sign in with SSO" at sfo1 to the provider's redirect back (not followed): the callback
 * URL the browser is about to load.
 */
async function toCallback(b: Browser, start: Record<string, string>, person?: { email: string; password: string }) {
  const started = await b.send('POST', 'http://sfo1.localhost:3000/sign-in/sso/start', { next: '/arc', ...start });
  expect(started.status).toBe(303);
  const { last, next } = await b.follow(started, isCallback);
  if (next) return next;
  // The provider's sign-in page: the person types their email and password.
  expect(last.body).toContain('Demo identity provider');
  const action = /action="([^"]+)"/.exec(last.body)![1]!;
  const posted = await b.send('POST', new URL(action, last.url).href, person!);
  const done = await b.follow(posted, isCallback);
  expect(done.next, done.last.body.slice(0, 300)).toBeDefined();
  return done.next!;
}

/** The whole flow: the callback's answer (303 to `next` with a session, or to /sign-in?error=). */
async function signInWithSso(b: Browser, start: Record<string, string>, person?: { email: string; password: string }) {
  const callback = await toCallback(b, start, person);
  const answer = await b.send('GET', callback.href);
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.location!, answer.url);
  return { answer, location, error: location.searchParams.get('error'), callback };
}

async function latestAudit(action: string) {
  const [row] = await query<{ metadata: Record<string, unknown>; org_id: string | null; target_id: string | null }>(
    primaryUrl,
    `SELECT metadata, org_id, target_id FROM audit_events WHERE action = $1 ORDER BY created_at DESC LIMIT 1`,
    [action],
  );
  return row;
}

beforeAll(async () => {
  idp = await startIdentityProvider({
    clients: [
      { ...ACME_CLIENT, redirectUris: callbacks },
      { ...PLATFORM_CLIENT, redirectUris: callbacks },
    ],
    people: [
      { email: 'alice@acme.test', password: 'idp-alice', name: 'Alice' },
      { email: 'carol@acme.test', password: 'idp-carol', name: 'Carol Jit' },
      { email: 'erin@acme.test', password: 'idp-erin', name: 'Erin', emailVerified: false },
      { email: 'dave@acme.test', password: 'idp-dave', name: 'Dave' },
      { email: 'vera@acme.test', password: 'idp-vera', name: 'Vera' },
      { email: 'mallory@evil.test', password: 'idp-mallory', name: 'Mallory' },
      { email: 'root@ops.test', password: 'idp-root', name: 'Root', groups: ['staff', 'meridian-operators'] },
      { email: 'dev@ops.test', password: 'idp-dev', name: 'Dev', groups: ['staff'] },
    ],
  });
  process.env.SSO_ALLOW_LOOPBACK_HTTP = 'on';
  process.env.PLATFORM_SSO_ISSUER = idp.issuer;
  process.env.PLATFORM_SSO_CLIENT_ID = PLATFORM_CLIENT.clientId;
  process.env.PLATFORM_SSO_CLIENT_SECRET = PLATFORM_CLIENT.clientSecret;
  resetEnvCache();
  const { urls, credentials } = await useDemoDatabase('sso');
  demo = credentials;
  primaryUrl = urls.primary;
  const [acme] = await query<{ id: string }>(primaryUrl, `SELECT id FROM organizations WHERE slug = 'acme'`);
  acmeId = acme!.id;
  const [alice] = await query<{ id: string }>(primaryUrl, `SELECT id FROM users WHERE email = 'alice@acme.test'`);
  aliceCookie = await sessionCookie(alice!.id, acmeId);

  const start = (await import('../../app/sign-in/sso/start/route')) as { GET: Handler; POST: Handler };
  const callback = (await import('../../app/sign-in/sso/callback/route')) as { GET: Handler };
  const discover = (await import('../../app/sign-in/sso/discover/route')) as { GET: Handler };
  const routes: Record<string, Handler> = {
    'GET /sign-in/sso/discover': discover.GET,
    'GET /sign-in/sso/start': start.GET,
    'POST /sign-in/sso/start': start.POST,
    'GET /sign-in/sso/callback': callback.GET,
  };
  gateway = http.createServer((req, res) => {
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? '';
    const handler = routes[`${req.method} ${(req.url ?? '/').split('?')[0]}`];
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!handler) return void res.writeHead(404).end();
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
        res.writeHead(
          r.status,
          [...r.headers.entries()]
            .filter(([k]) => k !== 'set-cookie')
            .concat(r.headers.getSetCookie().map((c) => ['set-cookie', c]))
            .flat(),
        );
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayPort = (gateway.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (gateway ? gateway.close(() => resolve()) : resolve()));
  await idp?.close();
  for (const k of [
    'SSO_ALLOW_LOOPBACK_HTTP',
    'PLATFORM_SSO_ISSUER',
    'PLATFORM_SSO_CLIENT_ID',
    'PLATFORM_SSO_CLIENT_SECRET',
  ])
    delete process.env[k];
  resetEnvCache();
});

const admin = () =>
  callerFor({ url: 'http://sfo1.localhost:3000/', headers: { cookie: aliceCookie } }).api.organization.sso;

describe('organization SSO settings', () => {
  it('are saved once the provider answers discovery; the secret is sealed and never answered', async () => {
    await expect(
      admin().update({
        issuer: `${idp.issuer}/nowhere`,
        client_id: ACME_CLIENT.clientId,
        client_secret: ACME_CLIENT.clientSecret,
        allowed_domains: ['acme.test'],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    expect(await admin().get()).toBeNull();

    const saved = await admin().update({
      issuer: idp.issuer,
      client_id: ACME_CLIENT.clientId,
      client_secret: ACME_CLIENT.clientSecret,
      allowed_domains: ['ACME.test', 'acme.test'],
    });
    expect(saved).toMatchObject({
      issuer: idp.issuer,
      client_secret_set: true,
      allowed_domains: ['acme.test'],
      default_role: 'member',
      require_sso: false,
      redirect_uris: { sfo1: 'http://sfo1.localhost:3000/sign-in/sso/callback' },
    });
    expect(JSON.stringify(saved)).not.toContain(ACME_CLIENT.clientSecret);
    const [row] = await query<{ client_secret_sealed: string }>(
      primaryUrl,
      `SELECT client_secret_sealed FROM organization_sso WHERE org_id = $1`,
      [acmeId],
    );
    expect(row!.client_secret_sealed.startsWith('v1.')).toBe(true);
    expect(row!.client_secret_sealed).not.toContain(ACME_CLIENT.clientSecret);
    // A change without a secret keeps the saved one (sign-ins below use it).
    await admin().update({ issuer: idp.issuer, client_id: ACME_CLIENT.clientId, allowed_domains: ['acme.test'] });
    expect((await latestAudit('sso.configure'))!.metadata).toMatchObject({ client_secret_changed: false });
  });

  it('refuses members who are not admins', async () => {
    const id = 'usr_frank00000000000000000000';
    await query(
      primaryUrl,
      `INSERT INTO users (id, email, name, password_hash, updated_at) VALUES ($1, 'frank@acme.test', 'Frank', 'x', now())`,
      [id],
    );
    await query(primaryUrl, `INSERT INTO memberships (user_id, org_id, role) VALUES ($1, $2, 'member')`, [id, acmeId]);
    const member = callerFor({ headers: { cookie: await sessionCookie(id, acmeId) } }).api.organization.sso;
    await expect(member.get()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      member.update({ issuer: idp.issuer, client_id: 'x', client_secret: 'y', allowed_domains: ['acme.test'] }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('sign-in with SSO', () => {
  it('adds a new person of an allowed domain as a member and signs them in at the region', async () => {
    // An endpoint that wants member.added (to the discard port: delivering is webhooks' test's business).
    const endpoint = newId('whk');
    await query(
      primaryUrl,
      `INSERT INTO webhook_endpoints (id, org_id, url, event_types, secret_sealed, updated_at)
       VALUES ($1, $2, 'http://127.0.0.1:9/', '{member.added}', $3, now())`,
      [endpoint, acmeId, sealSigningSecret(endpoint, 'whsec_c3NvLWppdC10ZXN0LXNlY3JldC0wMDAwMDAwMDAw')],
    );
    const b = new Browser();
    const r = await signInWithSso(b, { workspace: 'acme' }, { email: 'carol@acme.test', password: 'idp-carol' });
    expect(r.error).toBeNull();
    expect(r.location.pathname).toBe('/arc');
    expect(r.location.host).toBe('sfo1.localhost:3000');
    // The session is the region's own (host-only); the state cookie is gone.
    const set = r.answer.headers['set-cookie']!.find((c) => c.startsWith('authjs.session-token='))!;
    expect(set).toMatch(/HttpOnly/);
    expect(set).not.toMatch(/Domain=/i);
    expect(b.jar.get('sfo1.localhost:3000')?.has(SSO_COOKIE)).toBe(false);
    const me = await rest<{ user: { email: string }; organization: { slug: string }; role: string }>('GET', '/v1/me', {
      host: 'sfo1.localhost:3000',
      headers: { cookie: b.cookies('sfo1.localhost:3000') },
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { email: 'carol@acme.test' },
      organization: { slug: 'acme' },
      role: 'member',
    });
    const [m] = await query<{ role: string }>(
      primaryUrl,
      `SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'carol@acme.test' AND m.org_id = $1`,
      [acmeId],
    );
    expect(m!.role).toBe('member');
    expect((await latestAudit('membership.add'))!.metadata).toMatchObject({ via: 'sso', role: 'member' });
    expect((await latestAudit('auth.sign_in'))!.metadata).toMatchObject({ via: 'sso', email: 'carol@acme.test' });
    // Her joining is an event, in the transaction that made her a member, for the endpoint that wants it.
    const events = await query<{ data: { email: string; role: string }; endpoints: string[] }>(
      primaryUrl,
      `SELECT e.payload->'data' AS data, array_agg(d.endpoint_id) AS endpoints
         FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
        WHERE e.org_id = $1 AND e.type = 'member.added' GROUP BY e.id`,
      [acmeId],
    );
    expect(events.map((e) => [e.data.email, e.data.role, e.endpoints])).toEqual([
      ['carol@acme.test', 'member', [endpoint]],
    ]);
    await query(primaryUrl, 'DELETE FROM webhook_endpoints WHERE id = $1', [endpoint]);
    // Her account has no password anyone knows.
    expect(await checkCredentials({ email: 'carol@acme.test', password: 'idp-carol' }, 'addr-carol')).toBeNull();
  });

  it('adds people as viewers when the workspace’s default role says so (every role of the one list)', async () => {
    const saved = await admin().update({
      issuer: idp.issuer,
      client_id: ACME_CLIENT.clientId,
      allowed_domains: ['acme.test'],
      default_role: 'viewer',
    });
    expect(saved.default_role).toBe('viewer');
    try {
      const b = new Browser();
      const r = await signInWithSso(b, { workspace: 'acme' }, { email: 'vera@acme.test', password: 'idp-vera' });
      expect(r.error).toBeNull();
      const me = await rest<{ role: string }>('GET', '/v1/me', {
        host: 'sfo1.localhost:3000',
        headers: { cookie: b.cookies('sfo1.localhost:3000') },
      });
      expect(me.body.role).toBe('viewer');
      expect((await latestAudit('membership.add'))!.metadata).toMatchObject({ via: 'sso', role: 'viewer' });
      await expect(
        admin().update({
          issuer: idp.issuer,
          client_id: ACME_CLIENT.clientId,
          allowed_domains: ['acme.test'],
          default_role: 'owner' as never,
        }),
      ).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    } finally {
      await admin().update({ issuer: idp.issuer, client_id: ACME_CLIENT.clientId, allowed_domains: ['acme.test'] });
    }
  });

  it('signs an existing member in, and that session never carries the platform role', async () => {
    await query(primaryUrl, `UPDATE users SET platform_role = 'operator' WHERE email = 'alice@acme.test'`);
    try {
      const b = new Browser();
      const r = await signInWithSso(b, { workspace: 'acme' }, { email: 'alice@acme.test', password: 'idp-alice' });
      expect(r.error).toBeNull();
      const cookie = b.cookies('sfo1.localhost:3000');
      const me = await rest('GET', '/v1/me', { host: 'sfo1.localhost:3000', headers: { cookie } });
      expect(me.body).toMatchObject({ user: { email: 'alice@acme.test' } });
      const atlas = await rest('GET', '/v1/atlas/regions', { host: 'sfo1.localhost:3000', headers: { cookie } });
      expect(atlas.status).toBe(403);
    } finally {
      await query(primaryUrl, `UPDATE users SET platform_role = 'none' WHERE email = 'alice@acme.test'`);
    }
  });

  it('refuses an ID token for another audience', async () => {
    idp.tamperNextIdToken('wrong_audience');
    const r = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'alice@acme.test', password: 'idp-alice' },
    );
    expect(r.error).toBe('sso_token_invalid');
    expect(r.location.pathname).toBe('/sign-in');
    expect(r.location.searchParams.get('workspace')).toBe('acme');
    const audit = (await latestAudit('auth.sign_in_failed'))!;
    expect(audit.metadata).toMatchObject({ via: 'sso', code: 'sso_token_invalid' });
    expect(String(audit.metadata.reason)).toMatch(/aud/);
  });

  it('refuses an expired ID token', async () => {
    idp.tamperNextIdToken('expired');
    const r = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'alice@acme.test', password: 'idp-alice' },
    );
    expect(r.error).toBe('sso_token_invalid');
    expect(String((await latestAudit('auth.sign_in_failed'))!.metadata.reason)).toMatch(/exp/);
  });

  it('refuses an ID token with another nonce, or a broken signature', async () => {
    idp.tamperNextIdToken('wrong_nonce');
    const a = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'alice@acme.test', password: 'idp-alice' },
    );
    expect(a.error).toBe('sso_token_invalid');
    expect(String((await latestAudit('auth.sign_in_failed'))!.metadata.reason)).toMatch(/nonce/);
    idp.tamperNextIdToken('bad_signature');
    const b = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'alice@acme.test', password: 'idp-alice' },
    );
    expect(b.error).toBe('sso_token_invalid');
  });

  it('refuses a replayed state, and a state from another browser', async () => {
    const b = new Browser();
    const callback = await toCallback(b, { workspace: 'acme' }, { email: 'alice@acme.test', password: 'idp-alice' });
    const stateCookie = b.jar.get('sfo1.localhost:3000')!.get(SSO_COOKIE)!;
    const first = await b.send('GET', callback.href);
    expect(new URL(first.headers.location!, first.url).searchParams.get('error')).toBeNull();
    // The same callback again, with the same state cookie (an attacker who copied both).
    b.jar.get('sfo1.localhost:3000')!.set(SSO_COOKIE, stateCookie);
    const replay = await b.send('GET', callback.href);
    expect(new URL(replay.headers.location!, replay.url).searchParams.get('error')).toBe('sso_state_invalid');

    // Started in one browser, finished in another (a planted callback): refused, and spent.
    const other = await toCallback(
      new Browser(),
      { workspace: 'acme' },
      { email: 'alice@acme.test', password: 'idp-alice' },
    );
    const planted = await new Browser().send('GET', other.href);
    expect(new URL(planted.headers.location!, planted.url).searchParams.get('error')).toBe('sso_state_invalid');
  });

  it('refuses a domain the workspace does not allow, an unverified email, and an account outside it', async () => {
    const a = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'mallory@evil.test', password: 'idp-mallory' },
    );
    expect(a.error).toBe('sso_domain_not_allowed');
    const audit = (await latestAudit('auth.sign_in_failed'))!;
    expect(audit.metadata).toMatchObject({ code: 'sso_domain_not_allowed', domain: 'evil.test' });
    expect(audit.org_id).toBe(acmeId);
    expect((await query(primaryUrl, `SELECT 1 FROM users WHERE email = 'mallory@evil.test'`)).length).toBe(0);

    const e = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'erin@acme.test', password: 'idp-erin' },
    );
    expect(e.error).toBe('sso_email_unverified');

    await query(
      primaryUrl,
      `INSERT INTO users (id, email, name, password_hash, updated_at) VALUES ('usr_dave000000000000000000000', 'dave@acme.test', 'Dave', 'x', now())`,
    );
    const d = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'dave@acme.test', password: 'idp-dave' },
    );
    expect(d.error).toBe('sso_account_conflict');
  });

  it('answers a workspace without SSO like one that does not exist', async () => {
    const b = new Browser();
    for (const workspace of ['globex', 'no-such-workspace']) {
      const r = await b.send('POST', 'http://sfo1.localhost:3000/sign-in/sso/start', { workspace, next: '/arc' });
      expect(r.status).toBe(303);
      const to = new URL(r.headers.location!, r.url);
      expect(to.pathname).toBe('/sign-in');
      expect(to.searchParams.get('error')).toBe('sso_not_configured');
    }
  });

  it('starts at the workspace’s region: another region sends the browser there first', async () => {
    const b = new Browser();
    const r = await b.send('POST', 'http://ams1.localhost:3000/sign-in/sso/start', { workspace: 'acme', next: '/arc' });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('http://sfo1.localhost:3000/sign-in/sso/start?workspace=acme&next=%2Farc');
    const onward = await b.send('GET', r.headers.location!);
    const idpUrl = new URL(onward.headers.location!);
    expect(idpUrl.origin).toBe(idp.issuer);
    expect(idpUrl.searchParams.get('redirect_uri')).toBe('http://sfo1.localhost:3000/sign-in/sso/callback');
    expect(idpUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(idpUrl.searchParams.get('nonce')).toBeTruthy();
    expect(onward.headers['set-cookie']!.find((c) => c.startsWith(`${SSO_COOKIE}=`))).toMatch(
      /Path=\/sign-in\/sso; Max-Age=600; HttpOnly; SameSite=Lax/,
    );
  });
});

describe('require SSO', () => {
  it('turns password sign-in off for the organization’s members, once the password is right', async () => {
    const alice = demo.users.find((u) => u.email === 'alice@acme.test')!;
    const ops = demo.users.find((u) => u.email === 'ops@meridian.test')!;
    expect(await checkCredentials({ email: alice.email, password: alice.password }, 'addr-req-1')).toMatchObject({
      email: alice.email,
    });
    await admin().update({
      issuer: idp.issuer,
      client_id: ACME_CLIENT.clientId,
      allowed_domains: ['acme.test'],
      require_sso: true,
    });
    await expect(
      checkCredentials({ email: alice.email, password: alice.password }, 'addr-req-2'),
    ).rejects.toMatchObject({ code: 'sso_required', status: 403, extra: { workspace: 'acme' } });
    // A wrong password says nothing about the account's organizations.
    expect(await checkCredentials({ email: alice.email, password: 'wrong' }, 'addr-req-3')).toBeNull();
    // Anyone outside the organization is not concerned.
    expect(await checkCredentials({ email: ops.email, password: ops.password }, 'addr-req-4')).toMatchObject({
      email: ops.email,
    });
    // Single sign-on still signs her in.
    const r = await signInWithSso(
      new Browser(),
      { workspace: 'acme' },
      { email: 'alice@acme.test', password: 'idp-alice' },
    );
    expect(r.error).toBeNull();

    // An operator turns it off (a provider that locked the admins out): passwords work again.
    const [opsRow] = await query<{ id: string }>(primaryUrl, `SELECT id FROM users WHERE email = 'ops@meridian.test'`);
    const operator = callerFor({ headers: { cookie: await sessionCookie(opsRow!.id, null) } }).api.atlas.organizations;
    expect(await operator.sso({ id: acmeId })).toMatchObject({ require_sso: true, client_secret_set: true });
    expect(await operator.removeSso({ id: acmeId })).toEqual({ removed: true });
    expect((await latestAudit('operator.organization.sso_remove'))!.org_id).toBe(acmeId);
    expect(await checkCredentials({ email: alice.email, password: alice.password }, 'addr-req-5')).toMatchObject({
      email: alice.email,
    });
    await operator.updateSso({
      id: acmeId,
      issuer: idp.issuer,
      client_id: ACME_CLIENT.clientId,
      client_secret: ACME_CLIENT.clientSecret,
      allowed_domains: ['acme.test'],
    });
  });
});

describe('platform SSO', () => {
  it('makes a person whose claim names the operator value an operator, and refuses anyone else', async () => {
    const b = new Browser();
    const r = await signInWithSso(b, { platform: '1' }, { email: 'root@ops.test', password: 'idp-root' });
    expect(r.error).toBeNull();
    const cookie = b.cookies('sfo1.localhost:3000');
    const atlas = await rest('GET', '/v1/atlas/regions', { host: 'sfo1.localhost:3000', headers: { cookie } });
    expect(atlas.status).toBe(200);
    expect((await latestAudit('sso.operator_grant'))!.metadata).toMatchObject({
      email: 'root@ops.test',
      created: true,
    });

    const d = await signInWithSso(new Browser(), { platform: '1' }, { email: 'dev@ops.test', password: 'idp-dev' });
    expect(d.error).toBe('sso_not_operator');
    expect((await query(primaryUrl, `SELECT 1 FROM users WHERE email = 'dev@ops.test'`)).length).toBe(0);
  });
});

describe('email discovery at the sign-in page', () => {
  const discover = (host: string, email: string, next = '/arc/projects') =>
    new Browser().send('GET', `http://${host}/sign-in/sso/discover?${new URLSearchParams({ email, next })}`);

  it('names the workspace whose SSO takes the email’s domain, and its region’s start, from any region', async () => {
    for (const host of ['sfo1.localhost:3000', 'ams1.localhost:3000']) {
      const r = await discover(host, '  Somebody@ACME.test ');
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(r.body)).toEqual({
        workspace: 'acme',
        region: 'sfo1',
        start_url: 'http://sfo1.localhost:3000/sign-in/sso/start?workspace=acme&next=%2Farc%2Fprojects',
      });
    }
    // Another domain, or a next that leaves the site: nothing offered, or the default next.
    expect(JSON.parse((await discover('sfo1.localhost:3000', 'bob@globex.test')).body)).toEqual({ workspace: null });
    const offsite = JSON.parse((await discover('sfo1.localhost:3000', 'x@acme.test', 'https://evil.test/')).body);
    expect(new URL(offsite.start_url).searchParams.get('next')).toBe('/arc');
  });

  it('refuses what is not an email with the error shape, and offers no suspended workspace', async () => {
    for (const junk of ['', 'not-an-email', `${'a'.repeat(400)}@acme.test`]) {
      const r = await discover('sfo1.localhost:3000', junk);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).error).toMatchObject({
        code: 'invalid_request',
        request_id: expect.stringMatching(/^req_/),
      });
    }
    await query(primaryUrl, `UPDATE organizations SET status = 'suspended' WHERE id = $1`, [acmeId]);
    try {
      expect(JSON.parse((await discover('sfo1.localhost:3000', 'x@acme.test')).body)).toEqual({ workspace: null });
    } finally {
      await query(primaryUrl, `UPDATE organizations SET status = 'active' WHERE id = $1`, [acmeId]);
    }
  });
});

describe('the other failure codes', () => {
  const start = async (b: Browser, workspace = 'acme') => {
    const r = await b.send('POST', 'http://sfo1.localhost:3000/sign-in/sso/start', { workspace, next: '/arc' });
    expect(r.status).toBe(303);
    return new URL(r.headers.location!, r.url);
  };

  it('organization_suspended: a suspended workspace starts no sign-in', async () => {
    await query(primaryUrl, `UPDATE organizations SET status = 'suspended' WHERE id = $1`, [acmeId]);
    try {
      const to = await start(new Browser());
      expect([to.pathname, to.searchParams.get('error')]).toEqual(['/sign-in', 'organization_suspended']);
    } finally {
      await query(primaryUrl, `UPDATE organizations SET status = 'active' WHERE id = $1`, [acmeId]);
    }
  });

  it('sso_unavailable: a provider that does not answer', async () => {
    const [row] = await query<{ issuer: string }>(primaryUrl, `SELECT issuer FROM organization_sso WHERE org_id = $1`, [
      acmeId,
    ]);
    await query(primaryUrl, `UPDATE organization_sso SET issuer = 'http://127.0.0.1:9/gone' WHERE org_id = $1`, [
      acmeId,
    ]);
    try {
      const to = await start(new Browser());
      expect(to.searchParams.get('error')).toBe('sso_unavailable');
      expect((await latestAudit('auth.sign_in_failed'))!.metadata).toMatchObject({ code: 'sso_unavailable' });
    } finally {
      await query(primaryUrl, `UPDATE organization_sso SET issuer = $2 WHERE org_id = $1`, [acmeId, row!.issuer]);
    }
  });

  it('sso_idp_refused: the provider sends the person back with an error (they cancelled)', async () => {
    const b = new Browser();
    const authorize = await start(b);
    expect(authorize.origin).toBe(idp.issuer);
    const state = authorize.searchParams.get('state')!;
    const back = new URLSearchParams({ error: 'access_denied', state, iss: idp.issuer });
    const answer = await b.send('GET', `http://sfo1.localhost:3000/sign-in/sso/callback?${back}`);
    expect(answer.status).toBe(303);
    expect(new URL(answer.headers.location!, answer.url).searchParams.get('error')).toBe('sso_idp_refused');
  });

  it('rate_limited: at most 30 sign-ins started per address in 15 minutes (last: it spends the budget)', async () => {
    const b = new Browser();
    let refusedAt = 0;
    for (let i = 1; i <= 35 && !refusedAt; i++) {
      if ((await start(b, 'no-such-workspace')).searchParams.get('error') === 'rate_limited') refusedAt = i;
    }
    expect(refusedAt).toBeGreaterThan(0);
    expect(refusedAt).toBeLessThanOrEqual(31);
  });
});
