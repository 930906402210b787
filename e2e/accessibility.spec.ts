// Every page passes an axe scan (WCAG 2 A and AA rules) with no serious or critical violation:
// anonymous pages, Arc as an org admin, Atlas as an operator, on desktop and phone widths.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './sign-in';

async function scan(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `${path}\n${serious.join('\n')}`).toEqual([]);
}

const ANONYMOUS = ['/', '/sign-in', '/routing'];
const ARC = [
  '/arc',
  '/arc/clusters',
  '/arc/clusters/new',
  '/arc/projects',
  '/arc/notifications',
  '/arc/organization',
  '/arc/settings',
  '/arc/settings/api-keys',
];
const ATLAS = ['/atlas', '/atlas/audit', '/atlas/organizations', '/atlas/clusters', '/atlas/regions/lax1'];

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`axe, ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('anonymous pages', async ({ page }) => {
      for (const path of ANONYMOUS) await scan(page, path);
    });

    test('Arc pages (org admin)', async ({ page }) => {
      await signIn(page, 'alice@acme.test');
      for (const path of ARC) await scan(page, path);
      await page.goto('/arc/clusters');
      const detail = await page.locator('a[href^="/arc/clusters/cls_"]').first().getAttribute('href');
      await scan(page, detail!);
    });

    test('Atlas pages (operator)', async ({ page }) => {
      await signIn(page, 'ops@meridian.test', '/atlas');
      for (const path of ATLAS) await scan(page, path);
      await page.goto('/atlas/organizations');
      const org = await page.locator('a[href^="/atlas/organizations/org_"]').first().getAttribute('href');
      await scan(page, org!);
    });
  });
}
