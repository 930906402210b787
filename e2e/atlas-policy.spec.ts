// Atlas → Policy: ops opens globex's routing policy, sees a limit out of bounds explained under
// its field, makes a new version (active/standby with lax1 as the standby, a longer list lag),
// checks the diff, publishes it (confirmed), sees it current and at the top of the history, and
// every running gateway process synced to it; then rolls back to the version before and sees the
// gateways follow. A request globex makes after each publish explains itself (Atlas → Explain a
// request) with the version then current. Screenshots at desktop and phone size.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';
import { shot } from './checks';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

function globexKey(): string {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    api_keys: { org: string; region: string; key: string }[];
  };
  return creds.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
}

/** A request by globex (its lax1 key) made now, explained in Atlas: the policy version it ran under. */
async function explainsWith(page: Page, version: string) {
  const res = await page.request.get('/v1/projects', { headers: { authorization: `Bearer ${globexKey()}` } });
  expect(res.status()).toBe(200);
  const id = res.headers()['x-request-id']!;
  const back = page.url();
  await expect(async () => {
    await page.goto(`/atlas/requests?id=${encodeURIComponent(id)}`);
    await expect(page.getByText(`Version ${version}`, { exact: false })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 }); // a page load an attempt, on a machine that may be busy
  await page.goto(back);
}

const DESKTOP = { width: 1440, height: 1000 };
const PHONE = { width: 390, height: 844 };

async function shots(page: Page, name: string) {
  for (const [size, viewport] of Object.entries({ desktop: DESKTOP, phone: PHONE })) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300);
    await shot(page, `${name}-${size}`);
  }
  await page.setViewportSize(DESKTOP);
}

/** Every gateway process that is alive reports `version` as applied (the table polls every 2 s). */
async function gatewaysSyncedTo(page: Page, version: string) {
  const rows = page.getByTestId('gateway-row');
  await expect(rows.first()).toBeVisible();
  const alive = rows.and(page.locator(':not([data-status="gone"])'));
  await expect(async () => {
    const n = await alive.count();
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      await expect(alive.nth(i)).toHaveAttribute('data-applied', version, { timeout: 100 });
      await expect(alive.nth(i)).toHaveAttribute('data-status', 'synced', { timeout: 100 });
    }
  }).toPass({ timeout: 30_000 });
}

test('ops publishes a new version of globex’s policy, sees the gateways apply it, and rolls back', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'ops@meridian.test', '/atlas');
  await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Policy' }).click();
  await expect(page).toHaveURL(/\/atlas\/policy/);
  await expect(page.getByRole('heading', { level: 1, name: 'Routing policy' })).toBeVisible();

  await page.getByLabel('Policy of').selectOption('globex');
  await expect(page).toHaveURL(/org=globex/);
  const current = page.getByTestId('current-version');
  await expect(current.getByTestId('current-mode')).toHaveText('Fixed');
  const before = (await current.getByRole('heading').textContent())!.match(/\d+\.\d+/)![0];
  await gatewaysSyncedTo(
    page,
    (await page.getByTestId('gateways-summary').textContent())!.match(/\((\d+\.\d+)\)/)![1]!,
  );

  // A limit out of bounds: the store's message under the field, Publish disabled.
  const reads = page.getByTestId('route-read');
  await reads.getByLabel('Max replica lag (ms)').fill('99999');
  await expect(reads.getByText('must be between 0 and 10000')).toBeVisible();
  await expect(reads.getByLabel('Max replica lag (ms)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Publish…' })).toBeDisabled();
  await reads.getByLabel('Max replica lag (ms)').fill('1000');

  // Local only is offered (reads never leave their region), with what it means; not chosen here.
  await page.getByLabel('Local only').check();
  await expect(page.getByText('never the primary', { exact: false })).toBeVisible();
  await expect(page.getByTestId('preview-state')).toHaveText('Valid · 1 change');

  // The new version: active/standby (lax1), lists may lag 2.5 s.
  await page.getByLabel('Active / standby').check();
  await expect(page.getByText('active_standby needs a standby region')).toBeVisible();
  await page.getByLabel('Standby region', { exact: true }).selectOption('lax1');
  await page.getByTestId('route-list').getByLabel('Max replica lag (ms)').fill('2500');
  await page.getByLabel('Reason (optional)').fill('standby reads for the EU launch');
  await expect(page.getByTestId('preview-state')).toHaveText('Valid · 3 changes');
  const diff = page.getByTestId('changes').getByTestId('diff-row');
  await expect(diff.and(page.locator('[data-path="failover_mode"]'))).toContainText('active_standby');
  await expect(diff.and(page.locator('[data-path="standby_region"]'))).toContainText('lax1');
  await expect(diff.and(page.locator('[data-path="routes.list.max_lag_ms"]'))).toContainText('2500');
  await shots(page, 'atlas-policy-edit');

  await page.getByRole('button', { name: 'Publish…' }).click();
  const dialog = page.getByTestId('publish-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('diff-row')).toHaveCount(3);
  await shots(page, 'atlas-policy-confirm');
  await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(dialog).toBeHidden();

  await expect(current.getByTestId('current-mode')).toHaveText('Active / standby (standby lax1)');
  const published = (await current.getByRole('heading').textContent())!.match(/\d+\.\d+/)![0];
  expect(published).not.toBe(before);
  const history = page.getByTestId('history-row');
  await expect(history.first()).toHaveAttribute('data-version', published);
  await expect(history.first()).toContainText('Current');
  await expect(history.first()).toContainText('standby reads for the EU launch');
  await expect(history.first()).toContainText('ops@meridian.test');
  await gatewaysSyncedTo(page, published);
  await expect(page.getByTestId('gateways-summary')).toContainText(`(${published})`);
  await shots(page, 'atlas-policy-published');
  await explainsWith(page, published);
  await expect(current.getByTestId('current-mode')).toHaveText('Active / standby (standby lax1)');

  // Roll back to the version before: a new version that restores it; the gateways follow.
  await page.getByRole('button', { name: `Roll back to version ${before}` }).click();
  const rollback = page.getByTestId('rollback-dialog');
  await expect(rollback).toBeVisible();
  await expect(rollback.getByTestId('diff-row').and(page.locator('[data-path="failover_mode"]'))).toContainText(
    'fixed',
  );
  await rollback.getByRole('button', { name: 'Publish rollback' }).click();
  await expect(rollback).toBeHidden();
  await expect(current.getByTestId('current-mode')).toHaveText('Fixed');
  await expect(current).toContainText(`restores ${before}`);
  const restored = (await current.getByRole('heading').textContent())!.match(/\d+\.\d+/)![0];
  await expect(history.first()).toHaveAttribute('data-version', restored);
  await gatewaysSyncedTo(page, restored);
  await shots(page, 'atlas-policy-rolled-back');
  await explainsWith(page, restored);

  // Both are in the audit log.
  await page.goto('/atlas/audit');
  await expect(page.getByTestId('audit-row').filter({ hasText: 'operator.policy.rollback' }).first()).toBeVisible();
  await expect(page.getByTestId('audit-row').filter({ hasText: 'operator.policy.publish' }).first()).toBeVisible();
});
