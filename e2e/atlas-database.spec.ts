// Atlas → Database. The journeys' stack runs without an HA manager: ops opens the page from the
// Atlas navigation and reads that no HA manager is configured (failover is the provider's), sees
// this gateway's view of its primary live, and finds no switchover to ask for. Then the page as it
// is with one: the browser is handed an HA manager's view (members, promotions, a failover under
// way) in place of the gateway's answer, and ops asks for a switchover through the real server
// action, which refuses (no HA manager here): the dialog's reason, progress and the refusal.
// Axe scans; screenshots at desktop and phone size.
import type { Page } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';

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

test('ops sees the database without an HA manager: this gateway’s primary, and no switchover', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'ops@meridian.test', '/atlas');
  const nav = page.getByRole('navigation', { name: 'Atlas' });
  await nav.getByRole('link', { name: 'Database' }).click();
  await expect(page).toHaveURL(/\/atlas\/database$/);
  await expect(nav.getByRole('link', { name: 'Database' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1, name: 'Database' })).toBeVisible();

  // Unmanaged: said plainly, with the setting that would change it.
  const view = page.getByTestId('database-cluster');
  await expect(view).toHaveAttribute('data-managed', 'false');
  await expect(
    page.getByRole('heading', { level: 2, name: 'No HA manager is configured for this deployment' }),
  ).toBeVisible();
  await expect(page.getByTestId('db-unmanaged')).toContainText('DATABASE_HA_API_URLS');
  await expect(page.getByTestId('db-unmanaged')).toContainText('failover is the provider’s');

  // This gateway's view of its primary, live.
  await expect(page.getByRole('heading', { level: 2, name: 'This gateway’s primary' })).toBeVisible();
  await expect(page.getByTestId('db-primary-reachable')).toHaveText('yes');
  await expect(page.getByTestId('db-primary-host')).not.toBeEmpty();
  await expect(page.getByTestId('db-gateway-timeline')).toHaveText(/^(\d+|unknown)$/);
  await expect(page.getByText(/^Live: updated \d\d:\d\d:\d\d UTC, every 2 s$/)).toBeVisible();
  const first = await page.getByText(/^Live: updated/).textContent();
  await expect(page.getByText(/^Live: updated/)).not.toHaveText(first!);

  // Nothing of the HA manager's: no members, no promotions, no switchover, no failover callout.
  await expect(page.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Switch over' })).toHaveCount(0);
  await expect(page.getByTestId('failover-under-way')).toHaveCount(0);
  await expect(page.getByTestId('manager-error')).toHaveCount(0);

  await expectAccessible(page, '/atlas/database (no HA manager), desktop');
  await page.setViewportSize(PHONE);
  await expectAccessible(page, '/atlas/database (no HA manager), phone');
  await page.setViewportSize(DESKTOP);
  await shots(page, 'atlas-database-unmanaged');
});

/** What atlas.database.get answers with a Patroni cluster: a leader, its sync standby, two regions' replicas. */
const MANAGED = {
  managed: true,
  manager_error: null,
  leader: 'sfo1-a',
  timeline: 3,
  members: [
    {
      name: 'sfo1-a',
      role: 'leader',
      state: 'running',
      timeline: 3,
      lag_bytes: 0,
      candidate: true,
      address: '10.0.1.11:5432',
    },
    {
      name: 'sfo1-b',
      role: 'sync_standby',
      state: 'streaming',
      timeline: 3,
      lag_bytes: 0,
      candidate: true,
      address: '10.0.1.12:5432',
    },
    {
      name: 'lax1-r',
      role: 'replica',
      state: 'streaming',
      timeline: 3,
      lag_bytes: 4_096,
      candidate: false,
      address: '10.0.2.11:5432',
    },
    {
      name: 'ams1-r',
      role: 'replica',
      state: 'streaming',
      timeline: 3,
      lag_bytes: 2_621_440,
      candidate: false,
      address: '10.0.3.11:5432',
    },
  ],
  promotions: [
    { timeline: 3, at: '2026-12-04T09:12:03.412+00:00', new_leader: 'sfo1-a', reason: 'switchover to sfo1-a' },
    { timeline: 2, at: '2026-12-03T22:40:51.007+00:00', new_leader: 'sfo1-b', reason: 'no recovery target specified' },
  ],
  gateway: {
    primary_reachable: true,
    failover_under_way: false,
    primary_host: '10.0.1.11:5432',
    hosts: ['10.0.1.11:5432', '10.0.1.12:5432'],
    moves: 2,
  },
  switchover_ready: true,
};

async function answerAsManaged(page: Page, view: typeof MANAGED) {
  await page.unroute('**/api/trpc/atlas.database.get**');
  await page.route('**/api/trpc/atlas.database.get**', (route) =>
    route.fulfill({ contentType: 'application/json', body: JSON.stringify({ result: { data: { json: view } } }) }),
  );
}

test('with an HA manager (its view handed to the browser): members, promotions, and a switchover refused', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, 'ops@meridian.test', '/atlas');
  await answerAsManaged(page, MANAGED);
  await page.goto('/atlas/database');
  await expect(page.getByTestId('database-cluster')).toHaveAttribute('data-managed', 'true');
  await expect(page.getByTestId('db-leader')).toHaveText('sfo1-a');
  await expect(page.getByTestId('db-timeline')).toHaveText('3');

  const members = page.getByRole('table', { name: 'Database members' });
  await expect(members.getByRole('columnheader')).toHaveText([
    'Name',
    'Role',
    'State',
    'Timeline',
    'Lag',
    'Failover candidate',
    'Address',
  ]);
  const row = (name: string) => members.getByRole('row').filter({ hasText: name });
  await expect(row('sfo1-a').getByRole('cell').nth(1)).toHaveText('leader');
  await expect(row('sfo1-b').getByRole('cell').nth(1)).toHaveText('sync standby');
  await expect(row('ams1-r').getByRole('cell').nth(1)).toHaveText('replica');
  await expect(row('ams1-r').getByRole('cell').nth(4)).toHaveText('2.5 MiB');
  await expect(row('ams1-r').getByRole('cell').nth(5)).toHaveText(/^no/);
  await expect(row('sfo1-b').getByRole('cell').nth(5)).toHaveText('yes');
  const promotions = page.getByRole('table', { name: 'Promotions, newest first' });
  await expect(promotions.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('3');
  await expect(page.getByTestId('db-primary-host')).toHaveText('10.0.1.11:5432');
  await expectAccessible(page, '/atlas/database (HA manager), desktop');
  await shots(page, 'atlas-database-managed');

  // The switchover: what will happen, a reason required, progress, then the refusal on the page.
  const open = page.getByRole('button', { name: 'Switch over' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Switch over the primary?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('The primary moves from sfo1-a to the synchronous standby sfo1-b');
  await expect(dialog).toContainText('503 + Retry-After');
  await expect(dialog.getByLabel('Reason')).toBeFocused(); // the dialog's first control: a reason is required
  await dialog.getByRole('button', { name: 'Switch over' }).click();
  await expect(dialog.getByText('Say why: the audit log keeps the reason.')).toBeVisible();
  await dialog.getByLabel('Reason').fill('rehearsal from the browser journey');
  await expectAccessible(page, '/atlas/database switchover dialog');
  await shots(page, 'atlas-database-switchover-confirm');
  await dialog.getByRole('button', { name: 'Switch over' }).click();
  await expect(dialog).toBeHidden();
  const outcome = page.getByTestId('switchover-outcome');
  await expect(outcome.getByRole('alert')).toContainText(
    'The switchover did not happen: no HA manager is configured (DATABASE_HA_API_URLS): nothing to switch over',
  );
  await expect(outcome).toBeFocused();
  await shots(page, 'atlas-database-switchover-refused');

  // Not ready, and a failover under way: the button disabled with why, the callout said.
  await answerAsManaged(page, {
    ...MANAGED,
    leader: null,
    members: MANAGED.members.map((m) => (m.name === 'sfo1-a' ? { ...m, state: 'stopped', role: 'replica' } : m)),
    gateway: { ...MANAGED.gateway, primary_reachable: false, failover_under_way: true, primary_host: null },
    switchover_ready: false,
  } as unknown as typeof MANAGED);
  await expect(page.getByTestId('failover-under-way')).toHaveText(
    'A failover is under way: writes answer 503 until the standby takes over.',
  );
  await expect(open).toBeDisabled();
  await expect(page.getByText('Not now: a switchover needs a running leader')).toBeVisible();
  await expectAccessible(page, '/atlas/database (failover under way)');
  await shots(page, 'atlas-database-failover');

  // Dark mode, as the operator's system asks. Scanned at phone width: at desktop width the shell's
  // header shows the signed-in email in slate-500 on the dark header, which axe flags (not this page's).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/atlas/database');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByTestId('failover-under-way')).toBeVisible();
  await page.setViewportSize(PHONE);
  await expectAccessible(page, '/atlas/database (failover under way), dark, phone');
  await shots(page, 'atlas-database-failover-dark');
});
