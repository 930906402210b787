import { expect, test } from './fixtures';
import { shot } from './checks';

test.describe('the shell', () => {
  test('landing page lists the regions, at the global address', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'One console for every region' })).toBeVisible();
    const regions = page
      .getByRole('region', { name: 'Regions' })
      .or(page.locator('section[aria-labelledby="regions-heading"]'));
    for (const code of ['sfo1', 'lax1', 'ams1']) await expect(regions.getByText(code, { exact: true })).toBeVisible();
    // Which region holds the primary is infrastructure detail for Atlas, not the public page.
    await expect(page.getByText('mothership')).toHaveCount(0);
    await expect(page.getByTitle('The region this gateway serves')).toHaveText('global');
    await shot(page, 'shell-home');
  });

  test('a regional gateway shows its region', async ({ page, baseURL }) => {
    const url = new URL(baseURL!);
    url.hostname = 'lax1.localhost';
    await page.goto(url.toString());
    await expect(page.getByTitle('The region this gateway serves')).toHaveText('lax1');
  });

  test('Arc and Atlas ask an anonymous visitor to sign in', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Arc' }).click();
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=(%2F|\/)arc$/);
    await expect(page.getByRole('heading', { name: 'Sign in to Meridian' })).toBeVisible();
    await page.mouse.move(0, 400);
    await shot(page, 'sign-in');
    await page.goto('/atlas');
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=(%2F|\/)atlas$/);
  });

  test('works at phone width and in dark mode', async ({ browser, baseURL }) => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await ctx.newPage();
    await page.goto(`${baseURL}/`);
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expect(page.getByRole('heading', { name: 'One console for every region' })).toBeVisible();
    await shot(page, 'shell-phone-dark');
    await ctx.close();
  });
});
