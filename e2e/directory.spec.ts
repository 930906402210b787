// "Find your workspace" in a real browser: the global address sends a known workspace to its
// region's sign-in page and an unknown one to a decoy region whose sign-in fails exactly like a
// wrong password; the last workspace is offered on the next visit; the form works without
// JavaScript. Screenshots at desktop and phone width in e2e/.artifacts/.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoUser, regionOrigin, signIn } from './sign-in';
import { shot } from './checks';

async function find(page: Page, slug: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Your workspace', exact: true }).fill(slug);
  await page.keyboard.press('Enter'); // keyboard-first
}

async function signInHere(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test.describe('find your workspace', () => {
  test.beforeAll(async ({ request }) => {
    // The cells register at start (signed calls); wait until globex resolves (a few look-ups at most).
    await expect
      .poll(
        async () => {
          const res = await request.post('/api/v1/directory/resolve', { data: { slug: 'globex' } });
          return res.ok() ? ((await res.json()) as { region: string }).region : `status ${res.status()}`;
        },
        { timeout: 30_000, intervals: [1000, 2000, 3000] },
      )
      .toBe('sfo1');
  });

  test('globex: the global page sends you to your region, where you sign in', async ({ page, baseURL }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Find your workspace', level: 1 })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Your workspace', exact: true })).toBeFocused();
    await shot(page, 'directory-global');

    await find(page, 'globex');
    await expect(page).toHaveURL(`${regionOrigin(baseURL!, 'sfo1')}/sign-in?workspace=globex`);
    await expect(page.getByRole('heading', { name: 'Sign in to globex' })).toBeVisible();
    await expect(page.getByText(/\(sfo1\)/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Find your workspace' })).toHaveAttribute('href', `${baseURL}/`);
    await page.screenshot({
      path: 'e2e/.artifacts/directory-region-sign-in.png',
      fullPage: true,
      animations: 'disabled',
    });

    // A wrong password here: remember what that looks like.
    await signInHere(page, 'bob@globex.test', 'not-the-password');
    await expect(page.getByText('Email or password is not right.')).toBeVisible();

    const bob = demoUser('bob@globex.test');
    await signInHere(page, bob.email, bob.password);
    await expect(page).toHaveURL(`${regionOrigin(baseURL!, 'sfo1')}/arc`);
    await expect(page.getByText('Arc · globex')).toBeVisible(); // acting in the workspace it signed in to
  });

  test('an unknown workspace lands on a decoy region where sign-in fails like a wrong password', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/');
    await find(page, 'no-such-workspace-e2e');
    await expect(page).toHaveURL(
      /^http:\/\/(sfo1|lax1|ams1)\.localhost:\d+\/sign-in\?workspace=no-such-workspace-e2e$/,
    );
    const decoyRegion = new URL(page.url()).hostname.split('.')[0]!;
    await expect(page.getByRole('heading', { name: 'Sign in to no-such-workspace-e2e' })).toBeVisible();
    await expect(page.getByText(`(${decoyRegion})`)).toBeVisible();

    // Bob's real password: still refused, with the very message a wrong password gets.
    const bob = demoUser('bob@globex.test');
    await signInHere(page, bob.email, bob.password);
    await expect(page.getByText('Email or password is not right.')).toBeVisible();
    await expect(page).toHaveURL(`${regionOrigin(baseURL!, decoyRegion)}/sign-in?workspace=no-such-workspace-e2e`);
    await page.screenshot({
      path: 'e2e/.artifacts/directory-decoy-sign-in.png',
      fullPage: true,
      animations: 'disabled',
    });
  });

  test('the last workspace is offered on the next visit', async ({ page, baseURL }) => {
    await page.goto('/');
    await find(page, 'acme');
    await expect(page).toHaveURL(`${regionOrigin(baseURL!, 'sfo1')}/sign-in?workspace=acme`);
    await page.goto('/');
    const again = page.getByRole('button', { name: 'Continue to acme' });
    await expect(again).toBeVisible();
    await shot(page, 'directory-remembered');
    await again.click();
    await expect(page).toHaveURL(`${regionOrigin(baseURL!, 'sfo1')}/sign-in?workspace=acme`);
  });

  test('without JavaScript the form posts and redirects', async ({ browser, baseURL }) => {
    const ctx = await browser.newContext({ javaScriptEnabled: false });
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await page.getByRole('textbox', { name: 'Your workspace', exact: true }).fill('globex');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page).toHaveURL(`${regionOrigin(baseURL!, 'sfo1')}/sign-in?workspace=globex`);
    await page.goto(`${baseURL}/`);
    await page.getByRole('textbox', { name: 'Your workspace', exact: true }).fill('Not A Slug!');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page.getByText('A workspace name is 2 to 63')).toBeVisible();
    await ctx.close();
  });

  test('phone width', async ({ browser, baseURL }) => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await expect(page.getByRole('heading', { name: 'Find your workspace', level: 1 })).toBeVisible();
    await page.screenshot({
      path: 'e2e/.artifacts/directory-global-phone.png',
      fullPage: true,
      animations: 'disabled',
    });
    await find(page, 'globex');
    await expect(page.getByRole('heading', { name: 'Sign in to globex' })).toBeVisible();
    await page.screenshot({
      path: 'e2e/.artifacts/directory-region-sign-in-phone.png',
      fullPage: true,
      animations: 'disabled',
    });
    await ctx.close();
  });
});

test('Atlas → Directory lists the registered workspaces', async ({ page }) => {
  await signIn(page, 'ops@meridian.test', '/atlas/directory');
  await expect(page.getByRole('heading', { name: 'Directory', level: 1 })).toBeVisible();
  for (const slug of ['acme', 'globex'])
    await expect(page.locator(`[data-testid="directory-row"][data-slug="${slug}"]`)).toBeVisible();
  await shot(page, 'directory-atlas');
});
