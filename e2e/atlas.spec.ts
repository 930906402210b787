// Atlas: ops watches every region's health, its link to the primary and the lag history, drains a
// region with a reason (the card says so, the audit log records it), and sets it back to active.
// Screenshots at a wide desktop, at the 1280×720 wall screen and on a phone.
import type { Page } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';

const REGION = 'ams1';

async function setStatus(page: Page, status: string, reason: string) {
  const card = page.locator(`[data-testid="region-card"][data-region="${REGION}"]`);
  await card.getByLabel(`New status of ${REGION}`).selectOption(status);
  await card.getByLabel(`Reason for ${REGION}`).fill(reason);
  await card.getByRole('button', { name: 'Set status' }).click();
  await expect(card.getByTestId('region-status')).toHaveText(status);
  return card;
}

test('ops sees three live region cards and the lag history, drains a region with a reason, and restores it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await signIn(page, 'ops@meridian.test', '/atlas');
  await expect(page.getByRole('heading', { name: 'Region health' })).toBeVisible();
  const cards = page.getByTestId('region-card');
  await expect(cards).toHaveCount(3);
  for (const code of ['sfo1', 'lax1', 'ams1']) {
    const card = page.locator(`[data-testid="region-card"][data-region="${code}"]`);
    await expect(card.getByTestId('replica-state')).toHaveText('healthy');
    await expect(card.getByTestId('lag-bytes')).not.toHaveText('unknown');
  }
  // The link to the primary: the demo's one process is the global address's gateway, beside the
  // primary, so sfo1 (the primary's region) has a reading; no gateway of lax1 or ams1 reports one.
  const sfo1 = page.locator('[data-testid="region-card"][data-region="sfo1"]');
  await expect(sfo1.getByText('Link RTT to the primary')).toBeVisible(); // "to the primary": screen readers only
  await expect(sfo1.getByTestId('link-rtt')).toHaveText(/^\d+(\.\d)? ms$/, { timeout: 15_000 });
  await expect(page.locator('[data-testid="region-card"][data-region="ams1"]').getByTestId('link-rtt')).toHaveText(
    'unknown',
  );
  // Live: the "updated" line moves without a reload.
  const updated = page.getByText(/^Live: updated/);
  const first = await updated.textContent();
  await expect(updated).not.toHaveText(first!);

  // The history (the sampler writes every 5 s): lines for the replicas, the limit drawn.
  const lagChart = page.getByTestId('chart-lag-seconds');
  await expect(lagChart).toBeVisible({ timeout: 20_000 });
  await expect(lagChart.locator('.recharts-line path').first()).toBeAttached(); // flat at 0 when all is well
  await expect(lagChart.getByText(/^limit /)).toBeVisible();
  await page.getByRole('radio', { name: '1h' }).click();
  await expect(page.getByRole('radio', { name: '1h' })).toHaveAttribute('aria-checked', 'true');
  await expect(lagChart).toBeVisible();
  // …and the round trip to the primary over time, sfo1's line drawn.
  const rttChart = page.getByTestId('chart-link-rtt');
  await expect(rttChart.getByText('Round trip to the primary per region')).toBeVisible();
  await expect(rttChart.locator('.recharts-line path').first()).toBeAttached({ timeout: 20_000 });
  await shot(page, 'atlas-dashboard-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(sfo1.getByTestId('link-rtt')).toBeVisible();
  await shot(page, 'atlas-dashboard-phone');
  await expectAccessible(page, 'dashboard, phone');
  await page.setViewportSize({ width: 1920, height: 1080 });

  try {
    const card = await setStatus(page, 'draining', 'e2e: rack maintenance');
    await expect(card.getByTestId('region-reasons')).toContainText('Draining');
    await page.setViewportSize({ width: 1280, height: 720 });
    await shot(page, 'atlas-dashboard-1280x720-draining');

    await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/atlas\/audit$/);
    const row = page.getByTestId('audit-row').filter({ hasText: 'e2e: rack maintenance' }).first();
    await expect(row).toContainText('operator.region.set_status');
    await expect(row).toContainText('ops@meridian.test');
    await expect(row).toContainText('active → draining');
    await page.getByLabel('Action').fill('operator.*');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByTestId('audit-row').first()).toContainText('operator.region.set_status');
    await shot(page, 'atlas-audit-1280x720');

    await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Regions' }).click();
    const restored = await setStatus(page, 'active', 'e2e: maintenance done');
    await expect(restored.getByTestId('region-reasons')).toHaveCount(0);
  } finally {
    // Leave the region active for the other journeys whatever happened above.
    await page.request.patch(`/v1/atlas/regions/${REGION}`, {
      data: { status: 'active', reason: 'e2e cleanup' },
      headers: { origin: new URL(page.url()).origin },
    });
  }
});
