// Atlas with a replica down, in the browser: ops watches the dashboard while ams1's replica is
// stopped under the launcher's stack. Without a reload the card turns `down` with the reason in
// words, the others stay healthy, the banner says so, and the region's page still shows its
// capacity (read from the primary); restarted, everything is healthy again. Screenshots at
// 1280×720 and a 390×844 phone.
import path from 'node:path';
import { expectAccessible, shot } from './checks';
import { expect, test } from './fixtures';
import { EmbeddedTopology } from '../dev/embedded-pg/servers';
import { signIn } from './sign-in';

const REGION = 'ams1';
const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

test('a replica stops: its card says down and why, the banner says so, the pages keep working; then it recovers', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Re-attach to the launcher's topology (every server is running: nothing is started).
  const topo = await EmbeddedTopology.up({ dir: path.join(dataDir, 'pg'), regions: ['sfo1', 'lax1', 'ams1'] });
  await page.setViewportSize({ width: 1280, height: 720 });
  await signIn(page, 'ops@meridian.test', '/atlas');
  const card = (code: string) => page.locator(`[data-testid="region-card"][data-region="${code}"]`);
  await expect(page.getByTestId('region-card')).toHaveCount(3);
  await expect(card(REGION).getByTestId('replica-state')).toHaveText('healthy', { timeout: 20_000 });

  await topo.stopServer(REGION, 'immediate');
  try {
    // Live, without a reload.
    await expect(card(REGION).getByTestId('replica-state')).toHaveText('down', { timeout: 15_000 });
    await expect(card(REGION).getByTestId('region-reasons')).toContainText(
      'Replica unreachable: reads go to the primary.',
    );
    for (const code of ['sfo1', 'lax1']) await expect(card(code).getByTestId('replica-state')).toHaveText('healthy');
    const banner = page.locator(`[data-testid="alert"][data-kind="replica_down"][data-region="${REGION}"]`);
    await expect(banner).toContainText(`${REGION}'s replica has been unreachable`, { timeout: 40_000 });
    await shot(page, 'atlas-replica-down-1280x720');
    await expectAccessible(page, 'dashboard with a replica down, 1280×720');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card(REGION).getByTestId('replica-state')).toHaveText('down');
    await shot(page, 'atlas-replica-down-phone');
    await expectAccessible(page, 'dashboard with a replica down, phone');

    // The region's own page: the card, and the counts from the primary (nothing "not known").
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`/atlas/regions/${REGION}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(REGION);
    await expect(page.getByTestId('replica-state')).toHaveText('down', { timeout: 15_000 });
    await expect(page.getByText('Not known right now')).toHaveCount(0);
    await shot(page, 'atlas-replica-down-region-1280x720');
  } finally {
    await topo.startServer(REGION);
  }

  await page.goto('/atlas');
  await expect(card(REGION).getByTestId('replica-state')).toHaveText('healthy', { timeout: 30_000 });
  await expect(page.locator(`[data-testid="alert"][data-region="${REGION}"]`)).toHaveCount(0, { timeout: 30_000 });
});
