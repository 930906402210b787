// Passwords are never typed at the global address: its sign-in page names a workspace or a
// region, the password goes in at that region, and the session is handed back to the global
// address (server/auth/handoff.ts). Over real HTTP: a password posted at the global address is
// refused unchecked; a hand-over code works once, only in the browser that started it, and not
// after the session it came from has ended. Screenshots at desktop and phone width.
import type { APIRequestContext } from '@playwright/test';
import { giveBackBudget } from './database';
import { expect, test } from './fixtures';
import { demoUser, regionOrigin, submitPassword } from './sign-in';
import { shot } from './checks';

test.describe('sign-in at the global address', () => {
  test('globex: name the workspace, type the password at its region, come back signed in', async ({
    page,
    baseURL,
  }) => {
    // Earlier journeys looked workspaces up from this same address (20 a minute).
    await giveBackBudget('directory_lookup');
    // The cells register at start (signed calls): until then globex would resolve to a decoy.
    await expect
      .poll(async () => {
        const res = await page.request.post('/api/v1/directory/resolve', { data: { slug: 'globex' } });
        return res.ok() ? ((await res.json()) as { region: string }).region : `status ${res.status()}`;
      })
      .toBe('sfo1');
    await page.goto('/sign-in?callbackUrl=%2Farc%2Fclusters');
    await expect(page.getByRole('heading', { name: 'Sign in to Meridian' })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0); // nothing to type a password into here
    await expect(page.getByLabel('Your workspace')).toBeFocused();
    await expect(page.getByRole('link', { name: /^Sign in at .*\(lax1\)$/ })).toBeVisible();
    await shot(page, 'sign-in-global');

    await page.getByLabel('Your workspace').fill('globex');
    await page.keyboard.press('Enter');
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    await expect(page).toHaveURL(new RegExp(`^${sfo1}/sign-in\\?workspace=globex&callbackUrl=`));
    await expect(page.getByRole('heading', { name: 'Sign in to globex' })).toBeVisible();
    await expect(page.getByText(/go back to localhost:\d+, signed in/)).toBeVisible();
    await page.screenshot({
      path: 'e2e/.artifacts/sign-in-handoff-region.png',
      fullPage: true,
      animations: 'disabled',
    });

    await submitPassword(page, 'bob@globex.test');
    await expect(page).toHaveURL(`${baseURL}/arc/clusters`);
    await expect(page.getByRole('heading', { name: 'Clusters' })).toBeVisible();
    // Acting in the workspace it named; at the global address its list spans every region.
    const seen = await page.evaluate(async () => {
      const me = (await (await fetch('/v1/me')).json()) as { organization: { slug: string } };
      const res = await fetch('/v1/compute/clusters');
      return { org: me.organization.slug, status: res.status, source: res.headers.get('X-Region-Source') };
    });
    expect(seen).toEqual({ org: 'globex', status: 200, source: 'fan-out' });
    await page.screenshot({ path: 'e2e/.artifacts/sign-in-handoff-done.png', animations: 'disabled' });
    const cookies = await page.context().cookies(baseURL!);
    expect(cookies.map((c) => c.name)).toContain('authjs.session-token');
    expect(cookies.map((c) => c.name)).not.toContain('meridian_handoff'); // the state is spent
  });

  test('the page at phone width, and a region that is not known', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/sign-in/handoff/start?region=zzz9');
    await expect(page.getByRole('alert').filter({ hasText: /./ })).toHaveText('That region is not one Meridian knows.');
    await shot(page, 'sign-in-global-phone');
  });
});

/**
 * A browser's cookie jar over HTTP: starts a hand-over at sfo1 (signing in there unless this jar
 * already is) and returns the URL with the code that the region sends the browser back to.
 */
async function handoverTo(request: APIRequestContext, baseURL: string, email: string, next = '/arc') {
  const start = await request.get(`/sign-in/handoff/start?region=sfo1&next=${encodeURIComponent(next)}`, {
    maxRedirects: 0,
  });
  expect(start.status()).toBe(303);
  const sfo1 = regionOrigin(baseURL, 'sfo1');
  const issue = start.headers()['location']!.slice(sfo1.length);
  expect(start.headers()['location']!.startsWith(sfo1)).toBe(true);
  expect(issue).toMatch(/^\/sign-in\/handoff\/issue\?state=[A-Za-z0-9_-]{43}&next=/);
  const { csrfToken } = (await (await request.get(`${sfo1}/api/auth/csrf`)).json()) as { csrfToken: string };
  const codeUrl = new RegExp(`^${baseURL}/sign-in/handoff/finish\\?code=[A-Za-z0-9_-]{43}&next=`);
  // Signed in at sfo1, the GET is a page (nothing written) whose form POSTs the hand-over back.
  const issueCode = async () => {
    const page = await request.get(`${sfo1}${issue}`, { maxRedirects: 0 });
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain('action="/sign-in/handoff/issue"');
    const issued = await request.post(`${sfo1}/sign-in/handoff/issue`, {
      form: Object.fromEntries(new URL(issue, sfo1).searchParams),
      headers: { origin: sfo1 },
      maxRedirects: 0,
    });
    expect(issued.status()).toBe(303);
    expect(issued.headers()['location']).toMatch(codeUrl);
    return { finish: issued.headers()['location']!, sfo1, csrfToken };
  };
  const first = await request.get(`${sfo1}${issue}`, { maxRedirects: 0 });
  if (first.status() === 200) return issueCode();

  // Not signed in at sfo1 yet: its sign-in page first, coming back to the same issue path.
  expect(first.status()).toBe(303);
  expect(new URL(first.headers()['location']!, sfo1).searchParams.get('callbackUrl')).toBe(issue);
  const signedIn = await request.post(`${sfo1}/api/auth/callback/credentials`, {
    form: { email, password: demoUser(email).password, csrfToken, callbackUrl: `${sfo1}${issue}` },
    maxRedirects: 0,
  });
  expect(signedIn.status()).toBe(302);
  return issueCode();
}

const sessionCookie = (setCookie: string | undefined) => /authjs\.session-token=[^;]+/.exec(setCookie ?? '')?.[0];

test.describe('the hand-over over HTTP', () => {
  test('a password posted at the global address is refused without being checked', async ({ playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string };
    const alice = demoUser('alice@acme.test');
    const res = await request.post('/api/auth/callback/credentials', {
      form: { email: alice.email, password: alice.password, csrfToken, callbackUrl: `${baseURL}/arc` },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    expect(res.headers()['location']).toMatch(/error=CredentialsSignin&code=sign_in_at_region/);
    expect(sessionCookie(res.headers()['set-cookie'])).toBeUndefined();
    await request.dispose();
  });

  test('a code works once, only in the browser that started it', async ({ playwright, baseURL }) => {
    const browser = await playwright.request.newContext({ baseURL });
    const thief = await playwright.request.newContext({ baseURL });
    const { finish } = await handoverTo(browser, baseURL!, 'alice@acme.test', '/arc/projects');

    // Another browser (no state cookie) holding the code gets nothing, and uses the code up.
    const stolen = await thief.get(finish, { maxRedirects: 0 });
    expect(stolen.status()).toBe(303);
    expect(stolen.headers()['location']).toBe('/sign-in?error=handoff&callbackUrl=%2Farc%2Fprojects');
    expect(sessionCookie(stolen.headers()['set-cookie'])).toBeUndefined();
    const late = await browser.get(finish, { maxRedirects: 0 });
    expect(late.headers()['location']).toMatch(/error=handoff/);

    // A fresh hand-over in the right browser (still signed in at sfo1: nothing typed again)
    // signs in at the global address.
    const again = await handoverTo(browser, baseURL!, 'alice@acme.test', '/arc/projects');
    const done = await browser.get(again.finish, { maxRedirects: 0 });
    expect(done.status()).toBe(303);
    expect(done.headers()['location']).toBe('/arc/projects');
    const cookie = sessionCookie(done.headers()['set-cookie']);
    expect(cookie).toBeDefined();
    const me = await thief.get('/v1/me', { headers: { cookie: cookie! } });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe('alice@acme.test');
    // …and only once.
    expect((await browser.get(again.finish, { maxRedirects: 0 })).headers()['location']).toMatch(/error=handoff/);
    await browser.dispose();
    await thief.dispose();
  });

  test('signing out at the region before the code is used voids it', async ({ playwright, baseURL }) => {
    const browser = await playwright.request.newContext({ baseURL });
    const { finish, sfo1, csrfToken } = await handoverTo(browser, baseURL!, 'bob@globex.test');
    const out = await browser.post(`${sfo1}/api/auth/signout`, { form: { csrfToken }, maxRedirects: 0 });
    expect(out.status()).toBe(302);
    const res = await browser.get(finish, { maxRedirects: 0 });
    expect(res.headers()['location']).toMatch(/error=handoff/);
    expect(sessionCookie(res.headers()['set-cookie'])).toBeUndefined();
    await browser.dispose();
  });

  test('hostile values get a clear answer, never a 5xx', async ({ request, baseURL }) => {
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    const cases: [string, number][] = [
      ['/sign-in/handoff/finish?code=%00%ff', 400], // NUL in any input: 400 before any handler
      ['/sign-in/handoff/finish?code=%ff%fe', 400], // a URL that does not decode: 400
      [`/sign-in/handoff/finish?code=${'b'.repeat(43)}`, 303], // unknown code: back to /sign-in
      ['/sign-in/handoff/finish', 303],
      [`/sign-in/handoff/start?workspace=${'x'.repeat(5000)}`, 303],
      ['/sign-in/handoff/start?region=SFO1%0d%0aSet-Cookie:x=1', 303],
      [`${sfo1}/sign-in/handoff/issue?state=short`, 400],
      [`${sfo1}/sign-in/handoff/finish?code=${'a'.repeat(43)}`, 404], // only the global address finishes
      [`${sfo1}/sign-in/handoff/start?region=sfo1`, 404], // only the global address starts
    ];
    for (const [path, status] of cases) {
      const res = await request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(status);
      expect(res.headers()['set-cookie'] ?? '', path).not.toMatch(/^x=1/m);
    }
  });
});
