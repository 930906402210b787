// Atlas servers: ops opens Servers, narrows to one region's free servers, opens one, provisions it
// behind a confirmation and follows the run live (no reload) until the server is back in the
// pool; an allocated server can't be provisioned. Then, over real HTTP, a region's subdomain
// scopes the list to that region (API and page). Screenshots at 1920×1080, 1280×720 and 390×844.
import { shot } from './checks';
import { expect, test } from './fixtures';
import { demoUser, signIn } from './sign-in';

const REGION = 'lax1';

function originFor(baseURL: string, region?: string): string {
  const u = new URL(baseURL);
  if (region) u.hostname = `${region}.localhost`;
  return u.origin;
}

test('ops filters to one region, provisions a free server and follows the run live to the end', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await signIn(page, 'ops@meridian.test', '/atlas');
  await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Servers' }).click();
  await expect(page).toHaveURL(/\/atlas\/servers$/);
  await expect(page.getByRole('heading', { name: 'Servers', level: 1 })).toBeVisible();
  await expect(page.getByTestId('server-count')).toHaveText(/^\d+ servers · showing 50$/);
  const rows = page.getByTestId('server-row');
  await expect(rows).toHaveCount(50);

  // One region's free servers.
  await page.getByRole('group', { name: 'Region' }).getByRole('button', { name: REGION }).click();
  await page.getByRole('group', { name: 'Allocation' }).getByRole('button', { name: 'Free' }).click();
  await page.getByLabel('Status').selectOption('available');
  await expect(page.getByTestId('server-count')).toHaveText(/^\d+ servers match$/);
  await expect(rows.first()).toBeVisible();
  await expect(page.locator(`[data-testid="server-row"]:not([data-region="${REGION}"])`)).toHaveCount(0);
  await expect(page.locator('[data-testid="server-row"]:not([data-status="available"])')).toHaveCount(0);
  await expect(rows.filter({ hasText: 'Free' })).toHaveCount(await rows.count());
  await shot(page, 'atlas-servers-list-1920');

  // Search narrows to one hostname.
  const hostname = (await rows.first().getByRole('link').textContent())!;
  await page.getByLabel('Search').fill(hostname);
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link', { name: hostname }).click();
  await expect(page).toHaveURL(/\/atlas\/servers\/srv_[0-9A-Za-z]{26}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(hostname);
  await expect(page.getByTestId('server-status')).toHaveText('Available');
  await expect(page.getByTestId('server-region')).toHaveText(REGION);

  // Provision behind a confirmation; follow it without reloading the page.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole('button', { name: 'Provision', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Provision ${hostname}?` });
  await expect(dialog).toBeVisible();
  await shot(page, 'atlas-server-provision-confirm-1920');
  // The run lasts a few seconds (5 steps of 500 ms): its passing states are recorded as the page
  // renders them and checked once it is over (a loaded machine may render them late or briefly).
  await page.evaluate(() => {
    const seen = { status: [] as string[], running: false, disabledWhileProvisioning: false };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      const status = document.querySelector('[data-testid="server-status"]')?.textContent?.trim();
      if (status && !seen.status.includes(status)) seen.status.push(status);
      const provision = [...document.querySelectorAll('button')].find(
        (b) => !b.closest('dialog') && b.textContent?.trim() === 'Provision',
      );
      if (status === 'Provisioning' && provision?.disabled) seen.disabledWhileProvisioning = true;
      if (document.querySelector('[data-testid="run-step"][data-status="running"]')) seen.running = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await dialog.getByRole('button', { name: 'Provision', exact: true }).click();
  await expect(dialog).toBeHidden();

  const progress = page.getByTestId('run-progress');
  await expect(progress).toContainText('Server provisioning');
  await shot(page, 'atlas-server-provisioning-1920');
  await expect(progress).toHaveAttribute('data-run-status', 'succeeded', { timeout: 45_000 });
  // Live: it was seen provisioning, the button disabled meanwhile, some step running.
  type Seen = { status: string[]; running: boolean; disabledWhileProvisioning: boolean };
  const seen = await page.evaluate(() => (window as unknown as { __seen: Seen }).__seen);
  expect(seen).toEqual({
    status: expect.arrayContaining(['Provisioning']),
    running: true,
    disabledWhileProvisioning: true,
  });
  await expect(progress.locator('[data-testid="run-step"][data-status="succeeded"]')).toHaveCount(5);
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('server-status')).toHaveText('Available', { timeout: 10_000 });
  await expect(page.getByTestId('server-image')).toHaveText('meridian-node-2026.11');
  await expect(page.locator('[data-testid="history-run"][data-status="succeeded"]').first()).toBeVisible();
  await expect(
    page.locator('[data-testid="history-audit"][data-action="operator.server.provision"]').first(),
  ).toContainText('ops@meridian.test');
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await shot(page, 'atlas-server-provisioned-1920');

  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'atlas-server-provisioned-1280x720');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'atlas-server-provisioned-phone');

  // The list at phone width: cards, and an allocated server's page says why it can't be provisioned.
  await page.goto('/atlas/servers');
  await page.getByRole('group', { name: 'Allocation' }).getByRole('button', { name: 'Allocated' }).click();
  const cards = page.getByTestId('server-card');
  await expect(cards.first()).toBeVisible();
  await expect(page.locator('[data-testid="server-card"]:not([data-status="allocated"])')).toHaveCount(0);
  await shot(page, 'atlas-servers-list-phone');
  await cards.first().getByRole('link').click();
  await expect(page.getByTestId('server-status')).toHaveText('Allocated');
  await expect(page.getByRole('button', { name: 'Provision', exact: true })).toBeDisabled();
  await expect(page.getByText(/only a free server can be provisioned/)).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'atlas-server-allocated-1280x720');
});

test('a region’s subdomain scopes the server list to that region, over real HTTP', async ({ page, baseURL }) => {
  // Sign in at lax1's own address (cookies are per host), then call the API from there.
  const lax1 = originFor(baseURL!, REGION);
  await page.goto(`${lax1}/sign-in?callbackUrl=%2Fatlas%2Fservers`);
  const ops = demoUser('ops@meridian.test');
  await page.getByLabel('Email').fill(ops.email);
  await page.getByLabel('Password').fill(ops.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${lax1}/atlas/servers`);

  const call = (path: string, headers: Record<string, string> = {}) =>
    page.evaluate(
      async ({ path, headers }) => {
        const res = await fetch(path, { headers });
        const body = (await res.json()) as {
          data?: { region: string }[];
          total?: number;
          error?: { code: string };
        };
        return {
          status: res.status,
          region: res.headers.get('X-Region'),
          source: res.headers.get('X-Region-Source'),
          regions: [...new Set((body.data ?? []).map((s) => s.region))],
          total: body.total,
          code: body.error?.code,
        };
      },
      { path, headers },
    );

  const scoped = await call('/v1/atlas/infrastructure/servers?limit=200');
  expect(scoped).toMatchObject({ status: 200, region: REGION, source: 'subdomain', regions: [REGION] });
  expect(scoped.total).toBeGreaterThan(0);
  // An explicit region that is malformed or unknown is refused, not skipped.
  expect(await call('/v1/atlas/infrastructure/servers', { 'X-Region': 'NOPE' })).toMatchObject({
    status: 400,
    code: 'invalid_region',
  });
  expect(await call('/v1/atlas/infrastructure/servers?region=zzz9')).toMatchObject({
    status: 400,
    code: 'invalid_region',
  });

  // The page at this address says so and offers only this region.
  await expect(page.getByText(`This address is ${REGION}’s gateway`)).toBeVisible();
  const chips = page.getByRole('group', { name: 'Region' }).getByRole('button');
  await expect(chips).toHaveText([REGION]);
  await expect(page.getByTestId('server-row').first()).toBeVisible();
  await expect(page.locator(`[data-testid="server-row"]:not([data-region="${REGION}"])`)).toHaveCount(0);

  // At the global address the same call spans every region, and X-Region scopes it.
  await signIn(page, ops.email, '/atlas/servers'); // handed over from sfo1: no password typed here
  // Latency through the whole chain (browser → gateway → middleware → replica/primary), sequential.
  const ms = await page.evaluate(async () => {
    const out: number[] = [];
    for (let i = 0; i < 30; i++) {
      const path =
        i % 2
          ? '/v1/atlas/infrastructure/servers?sort=created_at&order=desc'
          : '/v1/atlas/infrastructure/servers?q=lax1&allocation=free';
      const t0 = performance.now();
      await (await fetch(path)).json();
      out.push(performance.now() - t0);
    }
    return out.sort((a, b) => a - b);
  });
  console.log(
    `server list latency over real HTTP, 30 calls: p50 ${ms[14]!.toFixed(1)} ms, p95 ${ms[28]!.toFixed(1)} ms, max ${ms[29]!.toFixed(1)} ms`,
  );
  const everywhere = await call('/v1/atlas/infrastructure/servers?limit=200');
  expect(everywhere).toMatchObject({ status: 200, source: 'fan-out' });
  expect(everywhere.total).toBeGreaterThan(scoped.total!);
  expect((await call('/v1/atlas/infrastructure/servers?limit=200', { 'X-Region': 'ams1' })).regions).toEqual(['ams1']);
});
