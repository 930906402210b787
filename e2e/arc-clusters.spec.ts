// Arc cluster journeys: alice (acme, one region) creates a cluster without ever naming a region
// and watches it become ready; bob (globex, three regions, no default) creates one in lax1,
// lists clusters across regions, filters by region and marks a notification read.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';
import { shot } from './checks';

/** A unique, valid cluster name (lowercase, starts with a letter, ≤ 40 characters). */
const clusterName = (who: string) => `e2e-${who}-${Date.now().toString(36)}`;

async function fillCreateForm(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: 'Create a cluster' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('radio', { name: /^Small/ }).check({ force: true }); // a visually hidden radio in a card
  await page.getByLabel('Nodes', { exact: true }).fill('1');
}

/** Waits on the detail page until the cluster is ready with every step of its run succeeded. */
async function waitUntilReady(page: Page) {
  await expect(page.getByTestId('run-progress')).toBeVisible();
  await expect(page.getByTestId('cluster-status')).toHaveText('Ready', { timeout: 90_000 });
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-run-status', 'succeeded');
  const steps = page.getByTestId('run-step');
  expect(await steps.count()).toBeGreaterThanOrEqual(3);
  for (const step of await steps.all()) await expect(step).toHaveAttribute('data-status', 'succeeded');
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
}

/** Deletes the cluster shown on the detail page and waits until it is gone (frees its servers). */
async function deleteCluster(page: Page) {
  await page.getByRole('button', { name: 'Delete cluster' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Deletion' })).toBeVisible();
  await expect(page.getByText('This cluster was deleted')).toBeVisible({ timeout: 90_000 });
}

test.describe('Arc clusters', () => {
  test.describe.configure({ timeout: 240_000 });

  test('alice creates a cluster without a region field and watches it become ready', async ({ page }) => {
    await signIn(page, 'alice@acme.test');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('navigation', { name: 'Arc' }).getByRole('link', { name: 'Clusters' }).click();
    await expect(page.getByRole('heading', { name: 'Clusters', exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Create cluster' }).click();
    await expect(page).toHaveURL(/\/arc\/clusters\/new$/);

    const name = clusterName('alice');
    await fillCreateForm(page, name);
    await expect(page.getByLabel('Region')).toHaveCount(0); // a single-region org never names one
    await shot(page, 'arc-cluster-new');

    await page.getByRole('button', { name: 'Create cluster' }).click();
    await expect(page).toHaveURL(/\/arc\/clusters\/cls_[0-9A-Za-z]{26}$/);
    const detailUrl = page.url();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    await expect(page.getByLabel('Region')).toHaveCount(0);
    await waitUntilReady(page);
    await expect(page.getByText('sfo1', { exact: true }).first()).toBeVisible();
    await page.mouse.move(0, 0);
    await shot(page, 'arc-cluster-ready');

    // The kubeconfig: downloaded as a file and shown for copying.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download kubeconfig' }).click();
    expect((await download).suggestedFilename()).toBe(`${name}.kubeconfig.yaml`);
    await expect(page.getByTestId('kubeconfig')).toContainText('apiVersion');
    await expect(page.getByRole('button', { name: 'Copy kubeconfig' })).toBeVisible();

    // Phone width: the detail page, then the list as cards.
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'arc-cluster-phone');
    await page.goto('/arc/clusters');
    await expect(page.getByTestId('cluster-card').filter({ hasText: name })).toBeVisible();
    await expect(page.getByRole('table')).toBeHidden();
    await page.screenshot({
      path: 'e2e/.artifacts/arc-clusters-phone.png',
      fullPage: true,
      animations: 'disabled',
    });

    // Clean up: back to it from its card, delete it and watch the deletion run.
    await page.getByTestId('cluster-card').filter({ hasText: name }).getByRole('link', { name }).click();
    await expect(page).toHaveURL(detailUrl);
    await page.setViewportSize({ width: 1280, height: 900 });
    await deleteCluster(page);
  });

  test('bob creates a cluster in lax1, lists every region, filters by region, marks a notification read', async ({
    page,
  }) => {
    await signIn(page, 'bob@globex.test');
    await expect(page.locator('#main').getByText('Arc · globex')).toBeVisible();
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.goto('/arc/clusters/new');
    const name = clusterName('bob');
    await fillCreateForm(page, name);
    const region = page.getByLabel('Region', { exact: true });
    await expect(region).toBeVisible(); // three regions, no default: bob picks one
    await region.selectOption('lax1');
    await page.getByRole('button', { name: 'Create cluster' }).click();
    await expect(page).toHaveURL(/\/arc\/clusters\/cls_[0-9A-Za-z]{26}$/);
    const detailUrl = page.url();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    await expect(page.getByText('lax1', { exact: true }).first()).toBeVisible();
    await waitUntilReady(page);

    // Every region's clusters in one list, with each region's answer.
    await page.goto('/arc/clusters');
    const rows = page.locator('tbody tr');
    for (const code of ['lax1', 'sfo1', 'ams1']) {
      await expect(page.locator(`tbody tr[data-region="${code}"]`).first()).toBeVisible();
      await expect(page.getByTestId(`region-chip-${code}`)).toBeVisible();
    }
    await expect(rows.filter({ hasText: name })).toContainText('lax1');
    await page.mouse.move(0, 0);
    await shot(page, 'arc-clusters-bob');

    await page.getByLabel('Region', { exact: true }).selectOption('ams1');
    await expect(page.locator('tbody tr:not([data-region="ams1"])')).toHaveCount(0);
    await expect(page.locator('tbody tr[data-region="ams1"]').first()).toBeVisible();
    await expect(page.getByTestId('region-chip-sfo1')).toHaveCount(0); // one region: no fan-out
    await shot(page, 'arc-clusters-ams1');

    // Notifications: the cluster's "ready" is among them; marking one read lowers the badge.
    await page
      .getByRole('navigation', { name: 'Arc' })
      .getByRole('link', { name: /Notifications/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
    await expect(page.getByTestId('notification').filter({ hasText: name }).first()).toBeVisible();
    const badge = page.getByTestId('unread-badge');
    await expect(badge).toBeVisible();
    const before = Number((await badge.textContent())!.replace(/\D/g, ''));
    expect(before).toBeGreaterThan(0);
    const item = page.getByTestId('notification').filter({ hasText: name }).first();
    await expect(item).toHaveAttribute('data-read', 'false');
    await shot(page, 'arc-notifications');
    await item.getByRole('button', { name: /^Mark read/ }).click();
    await expect(item).toHaveAttribute('data-read', 'true');
    if (before > 1) await expect(badge).toHaveText(new RegExp(`^${before - 1}\\b`));
    else await expect(badge).toHaveCount(0);
    await page.reload();
    if (before > 1) await expect(badge).toHaveText(new RegExp(`^${before - 1}\\b`));

    // Clean up.
    await page.goto(detailUrl);
    await deleteCluster(page);
  });

  test('a refused create shows the field error and a toast with the request ID', async ({ page }) => {
    await signIn(page, 'alice@acme.test', '/arc/clusters/new');
    await fillCreateForm(page, 'Not A Valid Name');
    await page.getByRole('button', { name: 'Create cluster' }).click();
    const toast = page.getByTestId('toast-error');
    await expect(toast).toContainText('Could not create the cluster');
    await expect(toast.getByTestId('toast-request-id')).toHaveText(/^req_sfo1-\d+-[0-9a-f]{12}$/);
    await expect(toast.getByRole('button', { name: 'Copy request ID' })).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Name', { exact: true })).toHaveAccessibleDescription(/starting with a letter/);
    await expect(toast).toContainText('name: lowercase letters');
    await expect(page).toHaveURL(/\/arc\/clusters\/new$/);
    await page.screenshot({ path: 'e2e/.artifacts/arc-cluster-new-error.png', animations: 'disabled' });
  });
});
