// Arc's other pages: projects (create, use as the session's project, delete), organization, settings
// (a saved theme that wins over the browser's), and how they look on a phone in dark mode.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';

const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: `e2e/.artifacts/${name}.png`, fullPage, animations: 'disabled' });

test('the Arc navigation marks the current page and is keyboard reachable', async ({ page }) => {
  await signIn(page, 'alice@acme.test');
  const nav = page.getByRole('navigation', { name: 'Arc' });
  await expect(nav.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: 'Organization' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/arc\/organization$/);
  await expect(nav.getByRole('link', { name: 'Organization' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('org-default-region')).toHaveText('sfo1');
  await page.goto('/arc/settings/api-keys');
  await expect(nav.getByRole('link', { name: 'API keys' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Settings' })).not.toHaveAttribute('aria-current', 'page');
});

test('alice creates a project and uses it for her session', async ({ page }) => {
  await signIn(page, 'alice@acme.test', '/arc/projects');
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(page.getByLabel('Default region')).toHaveCount(0); // one region: nothing to pick
  const name = `e2e-${Date.now().toString(36)}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  const row = page.getByTestId('project-row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row.getByRole('button', { name: `Use project ${name}` })).toBeVisible(); // the saved row, not the optimistic one
  await row.getByRole('button', { name: `Use project ${name}` }).click();
  await expect(page.getByTestId('current-project')).toContainText(name);
  await expect(row).toContainText('Current');
  await shot(page, 'arc-projects');
  await page.goto('/arc');
  await expect(page.locator('#main').getByText('Arc · acme')).toBeVisible();
  await page.goto('/arc/projects');
  await page.getByTestId('project-row').filter({ hasText: name }).getByRole('button', { name: 'Stop using' }).click();
  await expect(page.getByTestId('current-project')).toContainText('none');
});

test('alice deletes a project she uses: confirmed, gone, and her session uses none', async ({ page }) => {
  await signIn(page, 'alice@acme.test', '/arc/projects');
  const name = `e2e-del-${Date.now().toString(36)}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  const row = page.getByTestId('project-row').filter({ hasText: name });
  await row.getByRole('button', { name: `Use project ${name}` }).click();
  await expect(page.getByTestId('current-project')).toContainText(name);
  await row.getByRole('button', { name: `Delete project ${name}` }).click();
  const dialog = page.getByTestId('delete-project-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused(); // Enter never deletes
  await shot(page, 'arc-projects-delete', false);
  await dialog.getByRole('button', { name: 'Delete project' }).click();
  await expect(page.getByTestId('toast-success').filter({ hasText: `Project ${name} deleted` })).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('current-project')).toContainText('none');
  await page.reload();
  await expect(page.getByTestId('project-row').filter({ hasText: name })).toHaveCount(0);
});

test('bob changes a project’s default region in place; it is saved', async ({ page }) => {
  await signIn(page, 'bob@globex.test', '/arc/projects');
  const select = page.getByLabel('Default region of edge');
  await expect(select).toBeVisible();
  await select.selectOption('ams1');
  await expect(page.getByTestId('toast-success').filter({ hasText: 'edge: default region ams1' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Default region of edge')).toHaveValue('ams1');
  await shot(page, 'arc-projects-bob');
  await page.getByLabel('Default region of edge').selectOption('');
  await expect(page.getByTestId('toast-success').filter({ hasText: 'edge: default region none' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Default region of edge')).toHaveValue('');
});

test('bob’s saved theme applies at once and wins over the browser’s', async ({ page }) => {
  await signIn(page, 'bob@globex.test', '/arc/settings');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByLabel('Default region', { exact: true })).toBeVisible(); // three regions: a personal default
  await page.getByRole('radio', { name: /^Dark/ }).check({ force: true });
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Theme: Dark' })).toBeVisible();
  await shot(page, 'arc-settings-dark');
  // Another browser's choice (localStorage) loses to the saved one on the next load.
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

  await page.goto('/arc/organization');
  await expect(page.getByRole('heading', { name: 'Regions' })).toBeVisible();
  // Within the Regions section: while the page streams in, Next may hold a second, hidden copy.
  const regions = page.getByRole('region', { name: /^Regions/ });
  for (const code of ['sfo1', 'lax1', 'ams1']) await expect(regions.getByText(code, { exact: true })).toBeVisible();
  await shot(page, 'arc-organization-dark');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/arc/clusters');
  await expect(page.getByTestId('cluster-card').first()).toBeVisible();
  await shot(page, 'arc-clusters-phone-dark', false);
  await page.goto('/arc/notifications');
  await expect(page.getByTestId('notification').first()).toBeVisible();
  await shot(page, 'arc-notifications-phone-dark', false);
  await page.goto('/arc/clusters/new');
  await expect(page.getByLabel('Region', { exact: true })).toBeVisible();
  await shot(page, 'arc-cluster-new-phone-dark', false);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/arc/settings');
  await page.getByRole('radio', { name: /^System/ }).check({ force: true });
  await expect(page.getByTestId('toast-success').filter({ hasText: 'Theme: System' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system');
});
