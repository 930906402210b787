// Workspace moves: ops starts a move of acme from sfo1 to lax1 in Atlas and watches its steps
// advance live (no reload) to the end, with every table's count and digest matched; alice, signed
// in at sfo1 before, is sent to lax1's sign-in on her next page and signs in there. Then acme is
// moved back (after a handover only a move back is possible) so later journeys find the demo as
// it was. Screenshots at 1920×1080, 1280×800 and 390×844.
import type { Page } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { expect, revealed, test } from './fixtures';
import { MOVE_TABLES } from '../server/moves/tables';
import { demoUser, regionOrigin, signIn } from './sign-in';

async function signInAt(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/sign-in?workspace=acme`);
  await expect(page.getByRole('heading', { name: 'Sign in to acme' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(demoUser(email).password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(`${origin}/arc`);
  await revealed(page);
}

async function moveAndWait(page: Page, baseURL: string, slug: string, to: string): Promise<void> {
  const res = await page.request.post('/v1/atlas/moves', {
    data: { slug, to_region: to },
    headers: { origin: baseURL },
  });
  expect(res.status(), await res.text()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/v1/atlas/moves/${id}`)).json()) as { status: string }).status, {
      timeout: 60_000,
    })
    .toBe('completed');
}

test('ops moves acme to lax1 from Atlas and watches it live; alice at sfo1 is sent to lax1', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const sfo1 = regionOrigin(baseURL!, 'sfo1');
  const lax1 = regionOrigin(baseURL!, 'lax1');

  await page.setViewportSize({ width: 1920, height: 1080 });
  await signIn(page, 'ops@meridian.test', '/atlas/moves');
  const orgs = await page.request.get('/v1/atlas/organizations?q=acme');
  const acme = ((await orgs.json()) as { data: { id: string; slug: string }[] }).data.find((o) => o.slug === 'acme')!;
  // A run of this journey that stopped half way may have left acme at lax1: bring it home first.
  const dir = await page.request.get('/v1/atlas/directory/workspaces');
  const entry = ((await dir.json()) as { data: { slug: string; region: string }[] }).data.find(
    (w) => w.slug === 'acme',
  );
  if (entry?.region === 'lax1') await moveAndWait(page, baseURL!, 'acme', 'sfo1');

  // alice works at acme's home region, sfo1.
  const aliceContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const alice = await aliceContext.newPage();
  await signInAt(alice, sfo1, 'alice@acme.test');
  await expect(alice.locator('#main').getByText('Arc · acme')).toBeVisible();
  const idsOf = (path: string) =>
    alice.evaluate(async (p) => {
      const body = (await (await fetch(p)).json()) as { data: { id: string }[] };
      return body.data.map((r) => r.id).sort();
    }, path);
  const clustersBefore = await idsOf('/v1/compute/clusters?limit=100');
  const projectsBefore = await idsOf('/v1/projects?limit=100');
  expect(clustersBefore.length).toBeGreaterThan(0);

  // ops allows lax1 for acme (the step a refused move names), then starts the move in Atlas.
  await page.goto('/atlas');
  const allow = await page.request.patch(`/v1/atlas/organizations/${acme.id}`, {
    data: { allowed_regions: ['sfo1', 'lax1'] },
    headers: { origin: baseURL! },
  });
  expect(allow.status(), await allow.text()).toBe(200);

  await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Moves' }).click();
  await expect(page.getByRole('heading', { name: 'Workspace moves', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Workspace', exact: true }).fill('acme');
  await page.getByLabel('Target region').selectOption('lax1');
  await shot(page, 'moves-start-1920');
  // A cluster of acme's is being created: the move waits for its run (a step to watch live).
  // (From alice's page: only the browser resolves *.localhost.)
  const created = await alice.evaluate(
    async (name) => {
      const projects = (await (await fetch('/v1/projects')).json()) as { data: { id: string }[] };
      const res = await fetch('/v1/compute/clusters', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, project_id: projects.data[0]!.id, template: 'k8s-small', node_count: 1 }),
      });
      return res.status;
    },
    `moving-${Date.now().toString(36)}`,
  );
  expect(created).toBe(202);
  await page.getByRole('button', { name: 'Start move' }).click();
  await expect(page).toHaveURL(/\/atlas\/moves\/mov_[0-9A-Za-z]{26}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Move acme from sfo1 to lax1');

  // Live: the step list changes under our eyes, without a reload, until the move completes.
  const steps = page.getByTestId('move-step');
  await expect(steps).toHaveCount(7);
  const seen = new Set<string>();
  let midShot = false;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const states = await steps.evaluateAll((els) =>
      els.map((e) => `${e.getAttribute('data-step')}:${e.getAttribute('data-status')}`),
    );
    seen.add(states.join(','));
    const status = await page.getByTestId('move-status').locator('[data-status]').first().getAttribute('data-status');
    if (!midShot && states.some((s) => s.endsWith(':running') || s.endsWith(':pending')) && status !== 'completed') {
      await shot(page, 'moves-live-1920');
      midShot = true;
    }
    if (status === 'completed') break;
    if (status === 'failed' || status === 'cancelled' || Date.now() > deadline) {
      throw new Error(`the move ended ${status}: ${states.join(', ')}`);
    }
    await page.waitForTimeout(200);
  }
  expect(seen.size, [...seen].join('\n')).toBeGreaterThan(1); // it advanced while we watched
  await expect(page.locator('[data-testid="move-step"]:not([data-status="succeeded"])')).toHaveCount(0);
  const tables = page.getByTestId('move-table');
  // Every table a move carries (kubeconfig credentials made it 16), each one verified.
  await expect(tables).toHaveCount(MOVE_TABLES.length);
  await expect(tables.filter({ hasText: 'match' })).toHaveCount(MOVE_TABLES.length);
  await expect(page.getByTestId('move-read-only')).toHaveText(/^\d+(\.\d+)? s$/);
  await expect(page.getByRole('button', { name: 'Cancel move' })).toHaveCount(0);
  await shot(page, 'moves-done-1920');
  await expectAccessible(page, page.url());
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'moves-done-390');
  await expectAccessible(page, page.url());

  // The directory page shows acme at lax1.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/atlas/directory');
  const row = page.locator('[data-testid="directory-row"][data-slug="acme"]');
  await expect(row).toContainText('lax1');

  // alice's next page at sfo1 sends her to lax1's sign-in; she signs in there and finds her work.
  await alice.goto(`${sfo1}/arc/projects`);
  await expect(alice).toHaveURL(`${lax1}/sign-in?workspace=acme`);
  await expect(alice.getByText(/\(lax1\)/)).toBeVisible();
  await shot(alice, 'moves-alice-sent-to-lax1-1280');
  await alice.getByLabel('Email').fill('alice@acme.test');
  await alice.getByLabel('Password').fill(demoUser('alice@acme.test').password);
  await alice.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(alice).toHaveURL(`${lax1}/arc`);
  await alice.goto(`${lax1}/arc/projects`);
  await expect(alice.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  await expect(alice.getByText('web').first()).toBeVisible();
  await shot(alice, 'moves-alice-at-lax1-1280');
  // Her projects moved with the workspace. Her clusters are compute in sfo1 and stay there: at a
  // region's host lists are that region's (the subdomain comes first in the cascade), so from
  // lax1 she goes to the global address (no password typed there: the session is handed over
  // from lax1, where she is signed in), where she may name any of her regions, and finds every
  // project and every cluster she had.
  expect(await idsOf('/v1/projects?limit=100')).toEqual(projectsBefore);
  await alice.goto(`${baseURL}/sign-in?callbackUrl=%2Farc%2Fclusters`);
  await alice.getByLabel('Your workspace').fill('acme');
  await alice.getByRole('button', { name: 'Continue to your region' }).click();
  await expect(alice).toHaveURL(`${baseURL}/arc/clusters`);
  // Her default region is lax1 now (where nothing runs yet); her clusters answer where they run.
  expect(await idsOf('/v1/compute/clusters?limit=100&region=sfo1')).toEqual(expect.arrayContaining(clustersBefore));
  expect(await idsOf('/v1/projects?limit=100')).toEqual(projectsBefore);
  // The page says where an unfiltered list goes, and one pick shows the sfo1 clusters.
  await expect(alice.getByLabel('Region')).toHaveValue('');
  await expect(alice.getByLabel('Region').locator('option:checked')).toHaveText('lax1 (default)');
  await alice.getByLabel('Region').selectOption('sfo1');
  await expect(alice.locator('table tbody tr').first()).toBeVisible();
  await shot(alice, 'moves-alice-global-clusters-1280');
  await aliceContext.close();

  // Back home for the journeys after this one: only a move back undoes a handover.
  await moveAndWait(page, baseURL!, 'acme', 'sfo1');
  const restore = await page.request.patch(`/v1/atlas/organizations/${acme.id}`, {
    data: { allowed_regions: ['sfo1'] },
    headers: { origin: baseURL! },
  });
  expect(restore.status(), await restore.text()).toBe(200);
});
