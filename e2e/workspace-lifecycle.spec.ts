// A workspace's lifecycle in the browser: ops creates one in Atlas (the first admin's one-time link
// shown once), its new admin sets a password there and signs in, deletes the organization in Arc and
// keeps it again; ops suspends and reactivates it with a reason, offboards it (the slug typed) and
// cancels. Desktop and phone, axe on each page, screenshots. (Named to run after the specs that
// count the demo's two organizations.)
import type { Browser, Page } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { expect, revealed, test } from './fixtures';
import { signIn, submitPassword } from './sign-in';

const PASSWORD = 'a long enough password for this';

/** Atlas → Organizations → New: creates `slug` with a new admin; the setup link shown once. */
async function create(page: Page, slug: string, admin: string, label: string): Promise<string> {
  await page.goto('/atlas/organizations');
  await page.getByRole('link', { name: 'New organization' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New organization' })).toBeVisible();
  await page.getByLabel('Slug').fill(slug);
  await page.getByLabel('Name', { exact: true }).fill(`Lifecycle ${label}`);
  await page.getByLabel('Home region').selectOption('sfo1');
  await page.getByLabel('First admin’s email').fill(admin);
  await expectAccessible(page, `new organization (${label})`);
  await shot(page, `atlas-org-new-${label}`);
  await page.getByRole('button', { name: 'Create organization' }).click();
  const created = page.getByTestId('org-created');
  await expect(created).toContainText(`Lifecycle ${label} (${slug}) is ready in sfo1`);
  const link = (await page.getByTestId('setup-link').textContent())!;
  expect(link).toMatch(/^http:\/\/sfo1\.localhost:\d+\/set-password\?/);
  await shot(page, `atlas-org-created-${label}`);
  // The slug is taken now, in every region: a second create says so at the field.
  await page.getByRole('button', { name: 'Create another' }).click();
  await page.getByLabel('Slug').fill(slug);
  await page.getByLabel('Name', { exact: true }).fill('Again');
  await page.getByLabel('First admin’s email').fill(admin);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await expect(page.getByText(/taken/).first()).toBeVisible();
  return link;
}

/** The new admin, in a browser of their own: sets a password from the link, signs in, deletes and keeps it. */
async function adminDeletesAndKeeps(browser: Browser, link: string, admin: string, slug: string, label: string) {
  const context = await browser.newContext({ viewport: label === 'phone' ? { width: 390, height: 844 } : undefined });
  const page = await context.newPage();
  try {
    await page.goto(link);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat it').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    // The page's own link (the header gets one too, once it knows nobody is signed in).
    await page.locator('#main').getByRole('link', { name: 'Sign in' }).click();
    await submitPassword(page, admin, PASSWORD);
    await expect(page).toHaveURL(/\/arc$/);
    await page.goto(`${new URL(page.url()).origin}/arc/organization`);
    await revealed(page);
    await expect(page.getByRole('heading', { name: 'Delete this organization' })).toBeVisible();
    await page.getByRole('button', { name: `Delete ${slug}…` }).click();
    const dialog = page.getByTestId('delete-org-dialog');
    await dialog.getByLabel(`Type ${slug} to confirm`).fill(slug);
    await expectAccessible(page, `delete organization dialog (${label})`);
    await dialog.getByRole('button', { name: 'Delete organization' }).click();
    const notice = page.getByTestId('own-offboarding');
    await expect(notice).toContainText(`${slug} is being deleted`);
    await shot(page, `arc-org-deleting-${label}`);
    await notice.getByRole('button', { name: `Keep ${slug}` }).click();
    await expect(page.getByRole('button', { name: `Delete ${slug}…` })).toBeVisible();
    await expect(notice).toHaveCount(0);
  } finally {
    await context.close();
  }
}

/** Atlas → the organization: suspend and reactivate with a reason, offboard (slug typed), cancel. */
async function opsLifecycle(page: Page, slug: string, label: string) {
  await page.goto('/atlas/organizations');
  await page.getByLabel('Search').fill(slug);
  await page.getByRole('button', { name: 'Search' }).click();
  // A table row on a desktop, a card on a phone: the organization's name links to it in both.
  await page.getByRole('link', { name: `Lifecycle ${label}`, exact: true }).click();
  await expect(page).toHaveURL(/\/atlas\/organizations\/org_/);
  const status = page.getByTestId('org-status');
  await expect(status).toHaveText('active');

  await page.getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByText('Say why: the audit log keeps the reason.')).toBeVisible();
  await page.getByLabel('Reason to suspend').fill('e2e: unpaid invoice');
  await page.getByRole('button', { name: 'Suspend' }).click();
  await expect(status).toHaveText('suspended');
  await expectAccessible(page, `suspended organization (${label})`);
  await shot(page, `atlas-org-suspended-${label}`);
  await page.getByLabel('Reason to reactivate').fill('e2e: paid');
  await page.getByRole('button', { name: 'Reactivate' }).click();
  await expect(status).toHaveText('active');

  await page.getByRole('button', { name: `Offboard ${slug}…` }).click();
  const dialog = page.getByTestId('offboard-dialog');
  await dialog.getByLabel(`Type ${slug} to confirm`).fill(`${slug}-not`);
  await dialog.getByRole('button', { name: 'Offboard' }).click();
  await expect(page.getByTestId('toast-error')).toContainText(`Could not offboard ${slug}`);
  await expect(status).toHaveText('active');
  await page.getByRole('button', { name: `Offboard ${slug}…` }).click();
  await dialog.getByLabel(`Type ${slug} to confirm`).fill(slug);
  await dialog.getByRole('button', { name: 'Offboard' }).click();
  await expect(status).toHaveText('offboarding');
  await expect(page.getByTestId('org-offboarding')).toContainText('purged after');
  await shot(page, `atlas-org-offboarding-${label}`);
  await page.getByRole('button', { name: 'Cancel offboarding' }).click();
  await expect(status).toHaveText('active');
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`a workspace from creation to offboarding and back (${viewport.name})`, async ({ page, browser }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const stamp = Date.now().toString(36);
    const slug = `life-${viewport.name}-${stamp}`;
    const admin = `admin-${viewport.name}-${stamp}@lifecycle.test`;
    await signIn(page, 'ops@meridian.test', '/atlas');
    const link = await create(page, slug, admin, viewport.name);
    await adminDeletesAndKeeps(browser, link, admin, slug, viewport.name);
    await opsLifecycle(page, slug, viewport.name);
  });
}
