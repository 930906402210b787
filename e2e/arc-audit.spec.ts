// Arc's audit log: alice (acme's admin) makes a key, finds it in the log, filters by action and
// exports what the filter selects as CSV and JSON Lines; bob, a member of acme, reads it without
// the admins' details and cannot export it. Desktop and phone, axe on the page, screenshots.
import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expectAccessible, shot } from './checks';
import { expect, revealed, test } from './fixtures';
import { signIn } from './sign-in';

async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, 'utf8') };
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`alice reads acme’s audit log, filters it and exports it (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page, 'alice@acme.test', '/arc');
    const name = `audit-e2e-${viewport.name}-${Date.now()}`;
    const made = await page.request.post('/v1/api-keys', {
      headers: { origin: new URL(page.url()).origin },
      data: { name, scopes: ['read'] },
    });
    expect(made.status(), await made.text()).toBe(201);

    await page.goto('/arc/audit');
    await revealed(page);
    await expect(page.getByRole('heading', { name: 'Audit log', exact: true })).toBeVisible();
    const created = page.getByTestId('audit-row').filter({ hasText: name });
    await expect(created).toBeVisible();
    await expect(created).toContainText('alice@acme.test');
    await expect(created).toHaveAttribute('data-action', 'api_key.create');

    await page.getByLabel('Action').fill('api_key.*');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(created).toBeVisible();
    const actions = await page.getByTestId('audit-row').evaluateAll((rows) => rows.map((r) => r.dataset.action));
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.filter((a) => !a?.startsWith('api_key.'))).toEqual([]);
    await expectAccessible(page, `audit log (${viewport.name})`);
    await shot(page, `arc-audit-${viewport.name}`);

    const csv = await download(page, 'CSV');
    expect(csv.name).toMatch(/^audit-acme-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.text.startsWith('\uFEFF')).toBe(true); // UTF-8's byte-order mark, for spreadsheets
    const lines = csv.text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('created_at,actor_email,actor_id,action,target_type,target_id,region,request_id,metadata,id');
    expect(lines.slice(1).every((l) => l.split(',')[3]!.startsWith('api_key.'))).toBe(true);
    expect(csv.text).toContain(name);
    await expect(page.getByTestId('audit-export-status')).toContainText(`Saved ${lines.length - 1} events as`);

    const jsonl = await download(page, 'JSON Lines');
    expect(jsonl.name).toMatch(/^audit-acme-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const events = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; metadata: Record<string, unknown> });
    expect(events).toHaveLength(lines.length - 1);
    expect(events.some((e) => e.action === 'api_key.create' && JSON.stringify(e.metadata).includes(name))).toBe(true);
  });
}

test('bob, a member of acme, reads its log without the admins’ details, and cannot export it', async ({ page }) => {
  await signIn(page, 'bob@globex.test');
  // bob signs in to globex, where he is the admin; in acme he is a member.
  await page.getByLabel('Organization').selectOption({ label: 'acme (member)' });
  await expect(page.locator('#main').getByText('Arc · acme')).toBeVisible();
  const name = `audit-member-${Date.now()}`;
  const made = await page.request.post('/v1/projects', {
    headers: { origin: new URL(page.url()).origin },
    data: { name },
  });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto('/arc/audit');
  await revealed(page);
  await expect(page.getByTestId('audit-member-notice')).toContainText('without the details only admins read');
  const created = page.getByTestId('audit-row').filter({ hasText: name });
  await expect(created).toHaveAttribute('data-action', 'project.create');
  await expect(created).toContainText('bob@globex.test');
  await expect(page.getByRole('button', { name: 'CSV' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'JSON Lines' })).toHaveCount(0);
  await expectAccessible(page, 'audit log (member)');
  await shot(page, 'arc-audit-member');
});
