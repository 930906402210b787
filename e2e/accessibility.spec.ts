// Every page passes an axe scan (WCAG 2 A and AA rules) with no serious or critical violation:
// anonymous pages, Arc as an org admin, Atlas as an operator, each at desktop and phone widths
// in one visit (loaded at desktop width, scanned, narrowed to a phone's, scanned again).
import type { Page } from '@playwright/test';
import { expectAccessible } from './checks';
import { test } from './fixtures';
import { signIn } from './sign-in';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function scan(page: Page, path: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expectAccessible(page, `${path} (desktop)`);
  await page.setViewportSize(PHONE);
  // The layout at the new width, painted (charts redraw on their resize observer's next frame).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expectAccessible(page, `${path} (phone)`);
}

const ANONYMOUS = ['/', '/?workspace=globex&error=region_down&region=Amsterdam', '/sign-in', '/routing'];
// A region's sign-in page reached from the directory (names the workspace, links back).
const REGION_ANONYMOUS = ['/sign-in?workspace=globex'];
const ARC = [
  '/arc',
  '/arc/clusters',
  '/arc/clusters/new',
  '/arc/projects',
  '/arc/notifications',
  '/arc/organization',
  '/arc/audit',
  '/arc/settings',
  '/arc/settings/api-keys',
];
const ATLAS = [
  '/atlas',
  '/atlas/audit',
  '/atlas/servers',
  '/atlas/directory',
  '/atlas/moves',
  '/atlas/database',
  '/atlas/organizations',
  '/atlas/organizations/new',
  '/atlas/clusters',
  '/atlas/regions/lax1',
  '/atlas/policy',
  '/atlas/policy?org=globex',
  '/atlas/requests',
  '/atlas/requests?id=not-a-request-id',
  '/atlas/requests?id=req_sfo1-1770564159296-7d4b9e1f3a5b',
];
// Pages a test, each scanned twice: every test keeps a wide margin of its 60 s on a busy machine
// (four a test took up to 46 s in a clean-clone run of 2026-12-07, the first Atlas ones cold).
const PAGES_PER_TEST = 2;

test.describe('axe, desktop and phone', () => {
  test('anonymous pages', async ({ page, baseURL }) => {
    for (const path of ANONYMOUS) await scan(page, path);
    const sfo1 = new URL(baseURL!);
    sfo1.hostname = 'sfo1.localhost';
    for (const path of REGION_ANONYMOUS) await scan(page, new URL(path, sfo1).toString());
  });

  // A few pages a test, so that each has its whole timeout however many pages Arc grows.
  for (let i = 0; i < ARC.length; i += PAGES_PER_TEST) {
    const pages = ARC.slice(i, i + PAGES_PER_TEST);
    test(`Arc pages (org admin): ${pages[0]} …`, async ({ page }) => {
      await signIn(page, 'alice@acme.test');
      for (const path of pages) await scan(page, path);
    });
  }

  test('Arc detail pages (org admin)', async ({ page }) => {
    await signIn(page, 'alice@acme.test');
    await page.goto('/arc/clusters');
    const detail = await page.locator('a[href^="/arc/clusters/cls_"]').first().getAttribute('href');
    await scan(page, detail!);
  });

  for (let i = 0; i < ATLAS.length; i += PAGES_PER_TEST) {
    const pages = ATLAS.slice(i, i + PAGES_PER_TEST);
    test(`Atlas pages (operator): ${pages[0]} …`, async ({ page }) => {
      await signIn(page, 'ops@meridian.test', '/atlas');
      for (const path of pages) await scan(page, path);
    });
  }

  test('Atlas detail pages (operator)', async ({ page }) => {
    await signIn(page, 'ops@meridian.test', '/atlas');
    await page.goto('/atlas/servers');
    const server = await page.locator('a[href^="/atlas/servers/srv_"]').first().getAttribute('href');
    await scan(page, server!);
    await page.goto('/atlas/organizations');
    const org = await page.locator('a[href^="/atlas/organizations/org_"]').first().getAttribute('href');
    await scan(page, org!);
    // An explained request: the operator's own last request (its ID from X-Request-Id).
    const made = await page.request.get('/v1/atlas/regions');
    await scan(page, `/atlas/requests?id=${made.headers()['x-request-id']}`);
  });
});
