// Arc → Settings → Webhooks: alice (acme's admin) adds an endpoint pointing at a receiver this
// test runs on loopback, copies its whsec_ secret (shown once), sends a test event that the
// receiver verifies with the standardwebhooks package, watches the delivery log, redelivers
// (same webhook-id), rotates the secret, and deletes the endpoint; desktop and phone, axe clean.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expectAccessible, shot } from './checks';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';

interface Hit {
  path: string;
  id: string;
  raw: string;
  headers: Record<string, string>;
}

const hits: Hit[] = [];
let receiver: http.Server;
let base: string;

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      hits.push({ path: req.url!, id: headers['webhook-id']!, raw: Buffer.concat(chunks).toString('utf8'), headers });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((ok) => receiver.close(() => ok()));
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`alice adds a webhook, tests, redelivers and rotates it (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await signIn(page, 'alice@acme.test', '/arc/settings/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await expectAccessible(page, 'webhooks (empty form)');

    const path = `/hooks/${viewport.name}-${Date.now()}`;
    const url = `${base}${path}`;
    await page.getByLabel('Endpoint URL').fill(url);
    await page.getByLabel('Description').fill(`e2e ${viewport.name}`);
    await page.getByLabel('api_key.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const row = page.getByRole('row').filter({ hasText: url });
    await expect(row).toContainText('enabled');
    await expect(row).toContainText('api_key.created');

    await row.getByRole('button', { name: `Send a test event to ${url}` }).click();
    const log = page.getByRole('table', { name: `Deliveries to ${url}` });
    const delivered = log.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect(delivered).toContainText('succeeded', { timeout: 15_000 });
    await expect(delivered).toContainText('200');
    await expect(delivered).toContainText('received');
    const first = hits.find((h) => h.path === path)!;
    const event = new Webhook(secret).verify(first.raw, first.headers) as { type: string; id: string };
    expect(event).toMatchObject({ type: 'webhook.test', id: first.id });
    await expectAccessible(page, 'webhooks (endpoint and delivery log)');
    await shot(page, `webhooks-${viewport.name}`);

    await delivered.getByRole('button', { name: /^Redeliver webhook\.test/ }).click();
    await expect.poll(() => hits.filter((h) => h.path === path).length, { timeout: 15_000 }).toBe(2);
    expect(hits.filter((h) => h.path === path).map((h) => h.id)).toEqual([first.id, first.id]);

    await row.getByRole('button', { name: `Rotate the secret of ${url}` }).click();
    await expect(page.getByTestId('webhook-secret')).not.toHaveText(secret);
    await expect(page.getByRole('status').filter({ hasText: 'old one signs too' })).toBeVisible();
    await shot(page, `webhooks-rotated-${viewport.name}`);

    await row.getByRole('button', { name: `Disable ${url}` }).click();
    await expect(row).toContainText('disabled');
    await row.getByRole('button', { name: `Delete ${url}` }).click();
    await expect(page.getByRole('row').filter({ hasText: url })).toHaveCount(0);
  });
}
