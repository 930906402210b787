// Atlas' lag fault journey: ops watches the regions while ams1's replica stops replaying (the
// test pauses replay on it as the superuser and keeps writing on the primary). Without a reload
// the card turns lagging, the lag chart climbs and the alert banner appears, on every Atlas page,
// with the audit event; replay resumed, the card recovers and the banner goes away. Screenshots
// at 1920×1080, 1280×720 and a 390×844 phone.
import fs from 'node:fs';
import path from 'node:path';
import type { Locator } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { expect, test } from './fixtures';
import pg from 'pg';
import { signIn } from './sign-in';

const REGION = 'ams1';
const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

/** The stack's database URLs as the superuser (pausing replay needs it): the demo's URLs with
 * the admin role of the embedded topology's state.json. */
function adminUrls(): { primary: string; replica: string } {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    databases: { primary: string; replicas: Record<string, string> };
  };
  const state = JSON.parse(fs.readFileSync(path.join(dataDir, 'pg', 'state.json'), 'utf8')) as {
    adminPassword: string;
  };
  const asAdmin = (u: string) => {
    const url = new URL(u);
    url.username = 'postgres';
    url.password = state.adminPassword;
    return url.toString();
  };
  return { primary: asAdmin(creds.databases.primary), replica: asAdmin(creds.databases.replicas[REGION]!) };
}

/**
 * The value of the newest point of `region`'s line on the lag chart, read off the drawing: the
 * line's last point mapped through two y-axis ticks ("2.50 s" at y=…). It climbs as the replica
 * falls behind, whatever history the chart shows before it.
 */
async function lastPoint(chart: Locator, region: string): Promise<number | null> {
  return chart.evaluate((fig, name) => {
    const ticks = [...fig.querySelectorAll('.recharts-cartesian-axis-tick-value')]
      .map((t) => ({ text: (t.textContent ?? '').trim(), y: Number(t.getAttribute('y')) }))
      .filter((t) => /^[\d.]+ s$/.test(t.text) && Number.isFinite(t.y));
    const names = [...fig.querySelectorAll('.recharts-legend-item-text')].map((l) => l.textContent?.trim());
    const lines = [
      ...fig.querySelectorAll('.recharts-line path.recharts-line-curve, .recharts-line path.recharts-curve'),
    ];
    const d = lines[names.indexOf(name)]?.getAttribute('d');
    if (ticks.length < 2 || !d) return null;
    const nums = d.match(/-?[\d.]+(e-?\d+)?/g)!.map(Number);
    const y = nums.at(-1)!;
    const [a, b] = [ticks[0]!, ticks.at(-1)!];
    const [va, vb] = [Number.parseFloat(a.text), Number.parseFloat(b.text)];
    return va + ((y - a.y) * (vb - va)) / (b.y - a.y);
  }, region);
}

test('a replica stops replaying: its card turns lagging, the chart climbs and the banner says so, live; then it recovers', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const urls = adminUrls();
  const replica = new pg.Client({ connectionString: urls.replica });
  const primary = new pg.Client({ connectionString: urls.primary });
  await replica.connect();
  await primary.connect();
  let writing = true;
  let writer: Promise<void> | undefined;
  try {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await signIn(page, 'ops@meridian.test', '/atlas');
    const cards = page.getByTestId('region-card');
    await expect(cards).toHaveCount(3);
    const card = page.locator(`[data-testid="region-card"][data-region="${REGION}"]`);
    await expect(card.getByTestId('replica-state')).toHaveText('healthy');
    const alerts = page.getByTestId('alert');
    // Replicas' alerts (a busy machine may also raise link_slow, which this journey is not about).
    const replicaAlerts = page.locator('[data-testid="alert"][data-kind^="replica_"]');
    await expect(replicaAlerts).toHaveCount(0);

    const lagChart = page.getByTestId('chart-lag-seconds');
    await expect(lagChart).toBeVisible({ timeout: 20_000 });

    // The fault: replay paused on ams1's replica; WAL keeps coming from the primary.
    await replica.query('SELECT pg_wal_replay_pause()');
    writer = (async () => {
      while (writing) {
        // Transactional, so each one commits (flushed and sent at once, with a commit time).
        await primary.query(`SELECT pg_logical_emit_message(true, 'e2e-atlas-lag', repeat('x', 8192))`);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();

    // Live, without a reload: the card (3 probes over the limit), the chart, the banner.
    await expect(card.getByTestId('replica-state')).toHaveText('lagging', { timeout: 20_000 });
    await expect(card.getByTestId('region-reasons')).toContainText('reads go to the primary');
    await expect.poll(() => lastPoint(lagChart, REGION), { timeout: 30_000 }).toBeGreaterThan(1.5);
    const banner = alerts.filter({ hasText: `${REGION}'s replica has been lagging` });
    await expect(banner).toBeVisible({ timeout: 40_000 });
    // The other replicas keep up with the same writes: one alert, theirs stay healthy.
    await expect(replicaAlerts).toHaveCount(1);
    for (const code of ['sfo1', 'lax1']) {
      const other = page.locator(`[data-testid="region-card"][data-region="${code}"]`);
      await expect(other.getByTestId('replica-state')).toHaveText('healthy');
    }
    await expect(banner).toHaveText(
      /^⚠ams1's replica has been lagging for \d+ (s|min)[^:]*: [\d.]+ s behind \(limit 1 s\); reads go to the primary$/,
    );
    await expect(page.getByRole('alert').filter({ hasText: `${REGION}'s replica has been lagging` })).toBeAttached();
    const climbed = (await lastPoint(lagChart, REGION))!;
    await expect.poll(() => lastPoint(lagChart, REGION), { timeout: 20_000 }).toBeGreaterThan(climbed + 2); // still climbing
    for (const code of ['sfo1', 'lax1']) await expect.poll(() => lastPoint(lagChart, code)).toBeLessThan(1); // theirs stay low
    await shot(page, 'atlas-lag-alert-1920x1080');
    await expectAccessible(page, 'dashboard with the banner, 1920×1080');
    await page.setViewportSize({ width: 1280, height: 720 });
    await shot(page, 'atlas-lag-alert-1280x720');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(banner).toBeVisible();
    await shot(page, 'atlas-lag-alert-phone');
    await expectAccessible(page, 'dashboard with the banner, phone');

    // Every Atlas page shows it; the audit log has the event (written by the sampler, no actor).
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto('/atlas/audit');
    await expect(alerts.filter({ hasText: `${REGION}'s replica has been lagging` })).toBeVisible();
    await page.getByLabel('Action').fill('alert.*');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByTestId('audit-row').first()).toContainText('alert.replica_lagging');
    await shot(page, 'atlas-lag-alert-audit-1280x720');

    // Back on the dashboard (client-side: the banner stays mounted), replay resumes.
    await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Regions' }).click();
    await expect(page).toHaveURL(/\/atlas$/);
    await expect(alerts.filter({ hasText: `${REGION}'s replica has been lagging` })).toBeVisible();
    writing = false;
    await writer;
    await replica.query('SELECT pg_wal_replay_resume()');
  } finally {
    writing = false;
    await writer?.catch(() => {});
    await replica.query('SELECT pg_wal_replay_resume()').catch(() => {});
    await replica.end().catch(() => {});
    await primary.end().catch(() => {});
  }

  // Recovery, live: the card is healthy again, the banner goes (the next sample within the
  // limit closes the alert) and a screen reader hears it once.
  const card = page.locator(`[data-testid="region-card"][data-region="${REGION}"]`);
  await expect(card.getByTestId('replica-state')).toHaveText('healthy', { timeout: 20_000 });
  await expect(page.locator('[data-testid="alert"][data-kind^="replica_"]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('status').filter({ hasText: `${REGION}'s replica has caught up` })).toBeAttached();
  await shot(page, 'atlas-lag-recovered-1280x720');
  await page.goto('/atlas/audit');
  await page.getByLabel('Action').fill('alert.*');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByTestId('audit-row').first()).toContainText('alert.replica_recovered');
});
