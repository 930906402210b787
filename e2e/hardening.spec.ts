// Hardening over real HTTP, through the running server (`npm start`'s launcher):
// hostile cookies, paths and bodies, security headers and the CSP in a real browser, the
// sign-in redirect, tRPC's content types and origins, session revocation, sign-in limits and
// their audit trail, and what anonymous callers may see.
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoCredentials, sql } from './database';
import { demoUser, regionOrigin, signIn, submitPassword } from './sign-in';
import { shot } from './checks';

const creds = demoCredentials;
const acmeKey = () => creds().api_keys.find((k) => k.org === 'acme' && k.region === 'sfo1')!.key;

type ErrorOut = { error: { code: string; message: string; request_id: string } };

test.describe('hostile input', () => {
  test('1: a malformed bookmark cookie breaks nothing (pages and API)', async ({ request }) => {
    const cookie = 'meridian_bookmark=%E0%A4%A';
    expect((await request.get('/v1/openapi.json', { headers: { cookie } })).status()).toBe(200);
    expect((await request.get('/', { headers: { cookie } })).status()).toBe(200);
  });

  test('2: an undecodable path is 400 invalid_request with the contract body', async ({ request }) => {
    for (const path of ['/arc/%ED%A0%80', '/v1/compute/clusters?cursor=%E0%A4%A']) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(400);
      expect(((await res.json()) as ErrorOut).error.code).toBe('invalid_request');
    }
    const res = await request.patch('/v1/projects/%ED%A0%80', {
      headers: { authorization: `Bearer ${acmeKey()}` },
      data: { default_region: null },
    });
    expect(res.status()).toBe(400);
    const body = (await res.json()) as ErrorOut;
    expect(body.error.code).toBe('invalid_request');
    expect(res.headers()['x-request-id']).toBe(body.error.request_id);
  });

  test('the bare API root answers with the contract too (a fuzz finding: /v1/x/.. normalizes to /v1/)', async ({
    request,
  }) => {
    for (const path of ['/v1', '/v1/', '/v1/workflow-runs/..']) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(404);
      expect(((await res.json()) as ErrorOut).error.code).toBe('not_found');
      expect(res.headers()['x-request-id']).toMatch(/^req_/);
    }
  });

  test('6: bodies over the limit are 413, declared or streamed', async ({ request, baseURL }) => {
    const big = await request.post('/v1/projects', {
      headers: { authorization: `Bearer ${acmeKey()}` },
      data: { name: 'x'.repeat(300_000) },
    });
    expect(big.status()).toBe(413);
    expect(((await big.json()) as ErrorOut).error.code).toBe('payload_too_large');
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 50; i++) c.enqueue(new TextEncoder().encode(' '.repeat(10_000)));
        c.close();
      },
    });
    const streamed = await fetch(`${baseURL}/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${acmeKey()}`, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});

test.describe('compression', () => {
  test('API mutations answer uncompressed (small JSON); reads keep gzip', async ({ request }) => {
    const auth = { authorization: `Bearer ${acmeKey()}`, 'accept-encoding': 'gzip, deflate, br' };
    const refused = await request.post('/v1/projects', { headers: auth, data: { name: '' } });
    expect(refused.status()).toBe(400);
    expect(refused.headers()['content-encoding']).toBeUndefined();
    expect(((await refused.json()) as ErrorOut).error.code).toBe('invalid_request');
    const list = await request.get('/v1/projects', { headers: auth });
    expect(list.status()).toBe(200);
    expect(list.headers()['content-encoding']).toBe('gzip');
  });
});

test.describe('the browser', () => {
  test('7: security headers, and a nonce CSP the page runs under without violations', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto('/');
    const h = res!.headers();
    expect(h['content-security-policy']).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const nonce = /'nonce-([^']+)'/.exec(h['content-security-policy']!)![1];
    expect(await page.locator('head script').first().getAttribute('nonce')).not.toBeNull();
    // The attribute is hidden from script (nonce hiding); the property holds it.
    expect(
      await page
        .locator('head script')
        .first()
        .evaluate((s) => (s as HTMLScriptElement).nonce),
    ).toBe(nonce);
    await signIn(page, 'alice@acme.test', '/arc/clusters');
    await expect(page.getByRole('heading', { name: 'Clusters' })).toBeVisible();
    expect(violations).toEqual([]);
    const api = await page.request.get('/v1/ping');
    expect(api.headers()['x-content-type-options']).toBe('nosniff');
  });

  test('8: sign-in never sends the user to another origin', async ({ page, baseURL }) => {
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    await page.goto(`${sfo1}/sign-in?callbackUrl=${encodeURIComponent('/\\evil.example')}`);
    await submitPassword(page, 'alice@acme.test');
    await expect(page).toHaveURL(`${sfo1}/arc`);
    // Nor does the hand-over back to the global address, whatever `next` says.
    await page.goto(`/sign-in/handoff/start?region=sfo1&next=${encodeURIComponent('/\\evil.example')}`);
    await expect(page).toHaveURL(`${baseURL}/arc`);
  });

  test('9: after sign-out the old session cookie is refused', async ({ page, browser }) => {
    await signIn(page, 'bob@globex.test');
    const cookies = await page.context().cookies();
    const header = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const other = await browser.newContext();
    expect((await other.request.get('/v1/me', { headers: { cookie: header } })).status()).toBe(200);
    await page.goto('/sign-out');
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    // A copy of the cookie taken before signing out (a stolen one) is dead too.
    await expect
      .poll(async () => (await other.request.get('/v1/me', { headers: { cookie: header } })).status())
      .toBe(401);
    await other.close();
  });

  test('16: the API-key page shows and sets what a key may do', async ({ page }) => {
    await signIn(page, 'alice@acme.test', '/arc/settings/api-keys');
    await page.getByLabel('Name').fill(`read-only ${Date.now()}`);
    await page.getByLabel('Access').selectOption('read');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-key').textContent())!;
    const row = page.getByRole('row').filter({ hasText: 'read-only' }).first();
    await expect(row).toContainText('read');
    const refused = await page.request.post('/v1/projects', {
      headers: { authorization: `Bearer ${key}` },
      data: { name: `nope-${Date.now()}` },
    });
    expect(refused.status()).toBe(403);
    await shot(page, 'api-keys-scopes');
  });
});

test.describe('tRPC and origins', () => {
  // Signed in at sfo1 (passwords are typed only at a region); the token works at every address.
  async function session(request: APIRequestContext, baseURL: string, email: string): Promise<string> {
    const sfo1 = regionOrigin(baseURL, 'sfo1');
    const csrf = await request.get(`${sfo1}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await request.post(`${sfo1}/api/auth/callback/credentials`, {
      form: { email, password: demoUser(email).password, csrfToken, callbackUrl: `${sfo1}/arc` },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    const state = await request.storageState();
    return state.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  }

  test('10: JSON only, same origin only, no batches', async ({ request, baseURL }) => {
    const cookie = await session(request, baseURL!, 'alice@acme.test');
    const form = await request.post('/api/trpc/projects.create', {
      headers: { cookie, origin: baseURL!, 'content-type': 'multipart/form-data; boundary=x' },
      data: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nevil\r\n--x--\r\n',
    });
    expect(form.status()).toBe(415);
    const cross = await request.post('/api/trpc/projects.create', {
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      data: { json: { name: `csrf-${Date.now()}` } },
    });
    expect(cross.status()).toBe(403);
    const rest = await request.post('/v1/projects', {
      headers: { cookie, origin: 'https://evil.example' },
      data: { name: `csrf-${Date.now()}` },
    });
    expect(rest.status()).toBe(403);
    const batch = await request.get('/api/trpc/me.get,me.get?batch=1&input={}', { headers: { cookie } });
    expect(batch.status()).toBe(400);
  });
});

test.describe('sign-in limits and audit', () => {
  async function attempt(request: APIRequestContext, baseURL: string, email: string, password: string, xff: string) {
    const sfo1 = regionOrigin(baseURL, 'sfo1');
    const csrf = await request.get(`${sfo1}/api/auth/csrf`, { headers: { 'x-forwarded-for': xff } });
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await request.post(`${sfo1}/api/auth/callback/credentials`, {
      headers: { 'x-forwarded-for': xff },
      form: { email, password, csrfToken, callbackUrl: `${sfo1}/arc` },
      maxRedirects: 0,
    });
    // A refusal by the limits is the contract's 429; Auth.js redirects for the rest.
    if (res.status() === 429) return 'rate_limited';
    const location = res.headers()['location'] ?? '';
    return /error=/.test(location) ? 'refused' : 'signed-in';
  }

  test('5: rotating X-Forwarded-For buys no extra guesses; failures are audited', async ({ playwright, baseURL }) => {
    test.setTimeout(180_000);
    // One client (loopback), 40 concurrent guesses, each claiming another address.
    const contexts = await Promise.all(Array.from({ length: 40 }, () => playwright.request.newContext({ baseURL })));
    const before = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM audit_events WHERE action = 'auth.sign_in_failed'`,
    );
    let results: string[];
    try {
      results = await Promise.all(
        contexts.map((r, i) => attempt(r, baseURL!, `guess${i}@example.test`, 'nope', `203.0.113.${i}`)),
      );
    } finally {
      await Promise.all(contexts.map((c) => c.dispose()));
      // Every journey signs in from this same loopback address: give it its budget back.
      await sql(`DELETE FROM rate_limits WHERE key LIKE 'signin_%'`);
    }
    // The per-address budget (30 per 15 minutes) covers every claimed address: it is one client.
    // Earlier journeys from this address may have used some of it already.
    expect(results.filter((r) => r === 'refused').length).toBeLessThanOrEqual(30);
    expect(results.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(10);
    const after = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM audit_events WHERE action = 'auth.sign_in_failed'`,
    );
    expect(Number(after[0]!.n) - Number(before[0]!.n)).toBe(results.filter((r) => r === 'refused').length);
    const ok = await sql<{ n: string }>(`SELECT count(*) AS n FROM audit_events WHERE action = 'auth.sign_in'`);
    expect(Number(ok[0]!.n)).toBeGreaterThan(0); // the journeys' sign-ins
    const leaked = await sql(`SELECT 1 FROM audit_events WHERE metadata::text ILIKE '%nope%' LIMIT 1`);
    expect(leaked).toEqual([]); // never the password
  });
});

test.describe('what anonymous callers see', () => {
  test('12: health without database errors, the public region list without infrastructure', async ({ request }) => {
    const health = await request.get('/api/health');
    expect(health.status()).toBe(200);
    const region = (await (await request.get('/health/region')).json()) as {
      primary: { error: string | null };
      replicas: Record<string, { error: string | null }>;
    };
    for (const e of [region.primary.error, ...Object.values(region.replicas).map((r) => r.error)]) {
      expect([null, 'unreachable']).toContain(e);
    }
    const list = await request.get('/api/trpc/region.list');
    const regions = ((await list.json()) as { result: { data: { json: Record<string, unknown>[] } } }).result.data.json;
    expect(regions.length).toBeGreaterThan(0);
    for (const r of regions) {
      expect(r).not.toHaveProperty('provider');
      expect(r).not.toHaveProperty('isPrimary');
    }
    // /metrics answers this loopback client (a scraper beside the gateway), not the internet.
    expect((await request.get('/metrics')).status()).toBe(200);
  });
});
