// Atlas organizations: ops finds globex, tries to remove a region that still holds its clusters
// (the 409 is explained region by region and nothing changes), sets a default region and clears it
// again (globex ends as it began: sfo1 lax1 ams1, no default), lists every organization's clusters
// in one region, and opens a region's own page. Screenshots at 1920×1080, 1280×720 and 390×844.
import type { Page } from '@playwright/test';
import { shot } from './checks';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';

const SIZES = {
  desktop: { width: 1920, height: 1080 },
  wall: { width: 1280, height: 720 },
  phone: { width: 390, height: 844 },
};

/** Screenshots of the current page at every size, back at desktop afterwards. */
async function shots(page: Page, name: string) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300); // charts resize on the next frame
    await shot(page, `${name}-${size}`);
  }
  await page.setViewportSize(SIZES.desktop);
}

test('ops manages globex’s regions, sees the 409 explained, lists clusters in a region, opens a region', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, 'ops@meridian.test', '/atlas');
  const nav = page.getByRole('navigation', { name: 'Atlas' });

  // Organizations: both demo organizations, then a search narrows to globex.
  await nav.getByRole('link', { name: 'Organizations' }).click();
  await expect(page).toHaveURL(/\/atlas\/organizations$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  const rows = page.getByTestId('org-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'acme' })).toContainText('sfo1');
  await shots(page, 'atlas-organizations');
  await page.getByLabel('Search').fill('glob');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-slug', 'globex');
  await rows.first().getByRole('link', { name: 'Globex Industries' }).click();
  await expect(page).toHaveURL(/\/atlas\/organizations\/org_/);
  const orgUrl = page.url();
  const orgId = orgUrl.split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1, name: 'Globex Industries' })).toBeVisible();
  await expect(page.getByTestId('org-default-region')).toHaveText('none');
  await expect(page.getByTestId('org-members')).toHaveText(/^\d+$/);

  const form = page.getByTestId('regions-form');
  const restore = () =>
    page.request.patch(`/v1/atlas/organizations/${orgId}`, {
      data: { allowed_regions: ['sfo1', 'lax1', 'ams1'], default_region: null },
      headers: { origin: new URL(orgUrl).origin },
    });
  try {
    // Removing ams1, which still holds globex's clusters: refused, and said so in words.
    await form.getByLabel(/^ams1/).uncheck();
    await form.getByRole('button', { name: 'Save regions' }).click();
    const error = page.getByTestId('regions-error');
    await expect(error).toContainText(/ams1 still holds \d+ live clusters? of globex/);
    await expect(error).toContainText('Delete or move');
    await shots(page, 'atlas-organization-409');
    await form.getByRole('button', { name: 'Undo changes' }).click();
    await expect(form.getByLabel(/^ams1/)).toBeChecked();
    await expect(error).toHaveCount(0);

    // A default region: saved, and the facts say so.
    await form.getByLabel('Default region').selectOption('lax1');
    await form.getByRole('button', { name: 'Save regions' }).click();
    await expect(page.getByTestId('org-default-region')).toHaveText('lax1');
    await expect(page.getByTestId('org-regions')).toContainText('lax1 ★');
    await shots(page, 'atlas-organization');

    // Back as it was: no default.
    await page.getByTestId('regions-form').getByLabel('Default region').selectOption('');
    await page.getByTestId('regions-form').getByRole('button', { name: 'Save regions' }).click();
    await expect(page.getByTestId('org-default-region')).toHaveText('none');
  } finally {
    // Leave globex as the other journeys expect it, whatever happened above.
    expect((await restore()).status()).toBe(200);
  }

  // The audit log has both changes, before → after.
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await page.getByLabel('Action').fill('operator.organization.*');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByTestId('audit-row').first()).toContainText('operator.organization.set_regions');

  // Every organization's clusters, in one region; the filter lives in the address.
  await nav.getByRole('link', { name: 'Clusters' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Clusters' })).toBeVisible();
  const clusterRows = page.getByTestId('cluster-row');
  await expect(clusterRows.first()).toBeVisible();
  await expect(page.locator('[data-testid="cluster-row"][data-org="acme"]').first()).toBeVisible();
  await page.getByLabel('Region').selectOption('lax1');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/atlas\/clusters\?region=lax1$/);
  await expect(page.locator('[data-testid="cluster-row"]:not([data-region="lax1"])')).toHaveCount(0);
  await expect(clusterRows.first()).toHaveAttribute('data-region', 'lax1');
  await expect(clusterRows.first()).toHaveAttribute('data-org', 'globex'); // acme is sfo1-only
  await shots(page, 'atlas-clusters-lax1');

  // A region's own page, from its card on the dashboard.
  await nav.getByRole('link', { name: 'Regions' }).click();
  await page.locator('[data-testid="region-card"][data-region="lax1"]').getByRole('link', { name: /^lax1/ }).click();
  await expect(page).toHaveURL(/\/atlas\/regions\/lax1$/);
  await expect(page.getByTestId('replica-state')).toHaveText('healthy');
  await expect(page.getByTestId('capacity-cpu').getByTestId('free')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('chart-capacity').locator('.recharts-bar-rectangle').first()).toBeAttached();
  await expect(page.getByTestId('clusters-ready')).toContainText(/\d+/);
  await expect(page.getByTestId('chart-lag-seconds')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Lag and traffic history of lax1' })).toBeVisible();
  await shots(page, 'atlas-region-lax1');

  // Its clusters by status link to the cross-organization list, filtered.
  await page.getByTestId('clusters-ready').click();
  await expect(page).toHaveURL(/\/atlas\/clusters\?region=lax1&status=ready$/);
  await expect(page.locator('[data-testid="cluster-row"]:not([data-status="ready"])')).toHaveCount(0);
});
