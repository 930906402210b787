// "Sign in with SSO" in Chromium against the demo's own OpenID provider (dev/demo/sso.ts): a new
// person joins acme from the global address (region sign-in, provider, hand-over back), an admin
// turns "require SSO" on in Arc settings (passwords are then refused) and off again through SSO.
// Screenshots at desktop and phone width; axe on every page of ours.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { giveBackBudget } from './database';
import { expect, test } from './fixtures';
import { regionOrigin, signIn, submitPassword } from './sign-in';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';
const ssoUser = (email: string) => {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    sso: { issuer: string; users: { email: string; password: string }[] };
  };
  return { issuer: creds.sso.issuer, ...creds.sso.users.find((u) => u.email === email)! };
};

/** At the demo provider's sign-in page: type the person's email and password. */
async function atProvider(page: Page, email: string): Promise<void> {
  const u = ssoUser(email);
  await expect(page).toHaveURL(new RegExp(`^${u.issuer}/interaction/`));
  await expect(page.getByRole('heading', { name: 'Demo identity provider' })).toBeVisible();
  await page.getByLabel('Email').fill(u.email);
  await page.getByLabel('Password').fill(u.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test.describe('single sign-on', () => {
  test('a new person signs in with SSO from the global address and joins acme', async ({ page, baseURL }) => {
    await page.goto('/sign-in?callbackUrl=%2Farc');
    await page.getByRole('link', { name: /^Sign in at .*\(sfo1\)$/ }).click();
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    await expect(page).toHaveURL(new RegExp(`^${sfo1}/sign-in`));
    await page.getByText('Sign in with SSO', { exact: true }).click();
    await page.getByLabel('Your workspace').fill('acme');
    await expectAccessible(page, 'region sign-in with SSO open');
    await shot(page, 'sso-region-sign-in');
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`^${sfo1}/sign-in\\?.*workspace=acme`));
    await page.getByRole('link', { name: 'Sign in with SSO', exact: true }).click();

    await atProvider(page, 'carol@acme.test');
    // Back at sfo1 with a session, then handed over to the global address.
    await expect(page).toHaveURL(`${baseURL}/arc`);
    const me = await page.evaluate(async () => (await (await fetch('/v1/me')).json()) as Record<string, unknown>);
    expect(me).toMatchObject({ user: { email: 'carol@acme.test' }, organization: { slug: 'acme' }, role: 'member' });
    await shot(page, 'sso-signed-in');
  });

  test('an email whose domain acme’s SSO takes is offered “Continue with SSO” at its region', async ({
    page,
    baseURL,
  }) => {
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    const lax1 = regionOrigin(baseURL!, 'lax1');
    // Every sign-in of the journeys before this one looked its email up too, from this same
    // address: 60 look-ups in 15 minutes, and a longer suite ran out of them (a 429, nothing offered).
    await giveBackBudget('sso_discover_ip');
    // At another region's page, naming no workspace: the email alone finds acme, at sfo1.
    await page.goto(`${lax1}/sign-in?callbackUrl=%2Farc`);
    await page.getByLabel('Email').fill('carol@acme.test');
    await page.getByLabel('Password').focus();
    const offer = page.getByRole('link', { name: 'Continue with SSO', exact: true });
    await expect(offer).toBeVisible();
    await expect(page.getByText('acme.test signs in with single sign-on at the workspace')).toContainText(
      '(region sfo1)',
    );
    await expect(offer).toHaveAttribute('href', `${sfo1}/sign-in/sso/start?workspace=acme&next=%2Farc`);
    await expectAccessible(page, 'sign-in with an SSO email');
    await shot(page, 'sso-email-discovery');
    // Another domain: nothing offered.
    await page.getByLabel('Email').fill('someone@example.org');
    await page.getByLabel('Password').focus();
    await expect(offer).toBeHidden();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Email').fill('carol@acme.test');
    await page.getByLabel('Password').focus();
    await expect(offer).toBeVisible();
    await shot(page, 'sso-email-discovery-phone');
    await offer.click();
    await expect(page).toHaveURL(new RegExp(`^${ssoUser('carol@acme.test').issuer}/interaction/`));
  });

  test('a workspace’s sign-in page offers SSO and says why one failed (phone)', async ({ page, baseURL }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    await page.goto(`${sfo1}/sign-in?workspace=acme&error=sso_domain_not_allowed`);
    await expect(page.getByText(/domain is not one this workspace signs in with/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in with SSO', exact: true })).toBeVisible();
    await expectAccessible(page, 'workspace sign-in, phone');
    await shot(page, 'sso-workspace-sign-in-phone');
  });

  test('an admin requires SSO: passwords are refused, SSO still signs in', async ({ page, baseURL }) => {
    await signIn(page, 'alice@acme.test', '/arc/settings/sso');
    await expect(page.getByRole('heading', { name: 'Single sign-on' })).toBeVisible();
    await expect(page.getByLabel('Client ID')).toHaveValue('meridian-acme');
    await expect(page.getByText('/sign-in/sso/callback').first()).toBeVisible();
    await expectAccessible(page, 'Arc SSO settings');
    await shot(page, 'sso-settings');
    await page.getByLabel('Require SSO').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved. Your identity provider answered.')).toBeVisible();

    // A password, even the right one, no longer signs alice in.
    await page.context().clearCookies();
    const sfo1 = regionOrigin(baseURL!, 'sfo1');
    await page.goto(`${sfo1}/sign-in?workspace=acme&callbackUrl=%2Farc`);
    const refused = page.waitForResponse((r) => r.url().includes('/api/auth/callback/credentials'));
    await submitPassword(page, 'alice@acme.test');
    // What the browser receives: 403 sso_required in the contract's error shape, naming acme.
    const answer = await refused;
    expect(answer.status()).toBe(403);
    expect(((await answer.json()) as { error: Record<string, unknown> }).error).toMatchObject({
      code: 'sso_required',
      workspace: 'acme',
      request_id: expect.stringMatching(/^req_/),
    });
    await expect(page.getByText(/signs in with single sign-on: use “Sign in with SSO”/)).toBeVisible();
    await shot(page, 'sso-required-refusal');

    // Through SSO she is in, and turns the requirement off again (other journeys use passwords).
    await page.getByRole('link', { name: 'Sign in with SSO', exact: true }).click();
    await atProvider(page, 'alice@acme.test');
    await expect(page).toHaveURL(`${sfo1}/arc`);
    await page.goto(`${sfo1}/arc/settings/sso`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'sso-settings-phone');
    await page.getByLabel('Require SSO').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved. Your identity provider answered.')).toBeVisible();
  });
});
