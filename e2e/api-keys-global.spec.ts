// An organization-wide API key from the console: bob (globex admin, three regions) picks "All
// regions" on the API keys page, gets an mk_global_… key once, and it lists every region's
// clusters in one call (fan-out) while a region key of his sees one region.
import { expect, test } from './fixtures';
import { signIn } from './sign-in';

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`bob creates an organization-wide key (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(page, 'bob@globex.test', '/arc/settings/api-keys');
    await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
    const name = `e2e everywhere ${viewport.name} ${Date.now()}`;
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Region').selectOption({ label: 'All regions (global key)' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('new-key').textContent())!;
    expect(secret).toMatch(/^mk_global_[0-9A-Za-z]{12}_[0-9A-Za-z]{32,}$/);
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('global');
    await expect(row).toContainText('active');
    await page.screenshot({
      path: `e2e/.artifacts/api-keys-global-${viewport.name}.png`,
      fullPage: true,
      animations: 'disabled',
    });
    const regions = await page.evaluate(async (k) => {
      const res = await fetch('/v1/compute/clusters', {
        headers: { Authorization: `Bearer ${k}` },
        credentials: 'omit',
      });
      return { status: res.status, source: res.headers.get('X-Region-Source'), body: await res.json() };
    }, secret);
    expect(regions.status).toBe(200);
    expect(regions.source).toBe('fan-out');
    expect(Object.keys(regions.body.regions).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    await expect(row).toContainText('revoked');
  });
}
