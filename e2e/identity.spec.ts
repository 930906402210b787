// Sign-in journeys: alice (acme admin, one region), bob (globex admin, also an acme member),
// ops (platform operator). Credentials come from the demo the test stack seeded.
import { expect, test } from './fixtures';
import { regionOrigin, signIn } from './sign-in';
import { shot } from './checks';

test('a wrong password is refused without saying whether the email exists', async ({ page, baseURL }) => {
  await page.goto(`${regionOrigin(baseURL!, 'sfo1')}/sign-in`);
  await page.getByLabel('Email').fill('alice@acme.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: /./ });
  await expect(alert).toHaveText('Email or password is not right.');
  await page.getByLabel('Email').fill('nobody@acme.test');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(alert).toHaveText('Email or password is not right.');
});

test('alice signs in to Arc, is kept out of Atlas, creates and revokes an API key, signs out', async ({ page }) => {
  await signIn(page, 'alice@acme.test');
  await expect(page.locator('#main').getByText('Arc · acme')).toBeVisible();
  await expect(page.locator('#main').getByTestId('org-regions')).toHaveText('sfo1');
  await page.mouse.move(0, 500);
  await shot(page, 'arc-alice');

  const atlas = await page.goto('/atlas');
  expect(atlas?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Atlas is for platform operators' })).toBeVisible();

  await page.goto('/arc/settings/api-keys');
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await expect(page.getByLabel('Region')).toHaveCount(0); // a single-region org never names one
  const name = `e2e deploys ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('new-key').textContent())!;
  expect(secret).toMatch(/^mk_sfo1_[0-9A-Za-z]{12}_[0-9A-Za-z]{32,}$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('active');
  await shot(page, 'api-keys');

  const meWith = (key: string) =>
    page.evaluate(
      async (k) => (await fetch('/v1/me', { headers: { Authorization: `Bearer ${k}` }, credentials: 'omit' })).status,
      key,
    );
  expect(await meWith(secret)).toBe(200);
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(row).toContainText('revoked');
  expect(await meWith(secret)).toBe(401);

  await page.goto('/sign-out');
  await expect(page.getByRole('heading', { name: 'Sign out of Meridian?' })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await page.goto('/arc');
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=(%2F|\/)arc$/);
});

test('bob switches between globex and acme', async ({ page }) => {
  await signIn(page, 'bob@globex.test');
  await expect(page.locator('#main').getByText('Arc · globex')).toBeVisible();
  await expect(page.locator('#main').getByTestId('org-regions')).toHaveText('ams1 lax1 sfo1');
  const switcher = page.getByLabel('Organization');
  await expect(switcher).toHaveValue(/^org_/);
  await switcher.selectOption({ label: 'acme (member)' });
  await expect(page.locator('#main').getByText('Arc · acme')).toBeVisible();
  await expect(page.locator('#main').getByTestId('org-regions')).toHaveText('sfo1');
  await shot(page, 'arc-bob-acme');
  await page.goto('/arc/settings/api-keys');
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0); // a member cannot
  await switcher.selectOption({ label: 'globex (admin)' });
  await expect(page.getByLabel('Region')).toBeVisible(); // three regions: bob picks one
});

test('ops signs in to Atlas', async ({ page }) => {
  await signIn(page, 'ops@meridian.test', '/atlas');
  await expect(page.getByRole('heading', { name: 'Region health' })).toBeVisible();
  await expect(page.getByTestId('region-card')).toHaveCount(3);
  await page.mouse.move(0, 500);
  await shot(page, 'atlas-ops');
});
