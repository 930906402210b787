// Explain a request: a real request through the API (acme's key, with a W3C traceparent, twice in
// one trace), then ops pastes its X-Request-Id into Atlas' "Explain a request" and reads the
// story (door, identity, cascade, candidates, served-by matching the response's own header),
// follows the trace's other request from the table, sees the invalid and unknown states, and
// opens the same link with JavaScript off. Needs the request middleware's decision records
// (server/api/middleware/request.ts). Screenshots at desktop and phone.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';
import { shot } from './checks';

const dataDir = process.env.E2E_DATA_DIR ?? '.data/e2e';

function apiKey(org: string, region = 'sfo1'): string {
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
    api_keys: { org: string; region: string; key: string }[];
  };
  return creds.api_keys.find((k) => k.org === org && k.region === region)!.key;
}

async function shots(page: Page, name: string) {
  for (const [size, viewport] of Object.entries({
    desktop: { width: 1440, height: 900 },
    phone: { width: 390, height: 844 },
  })) {
    await page.setViewportSize(viewport);
    await shot(page, `${name}-${size}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('ops explains a real request by its ID, follows its trace, and the link works without JavaScript', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const traceId = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const headers = (span: string) => ({
    authorization: `Bearer ${apiKey('acme')}`,
    traceparent: `00-${traceId}-${span}-01`,
  });
  const first = await request.get('/v1/projects', { headers: headers('00f067aa0ba902b7') });
  expect(first.status()).toBe(200);
  const second = await request.get('/v1/me', { headers: headers('00f067aa0ba902b8') });
  expect(second.status()).toBe(200);
  const id = first.headers()['x-request-id']!;
  const secondId = second.headers()['x-request-id']!;
  expect(id).toMatch(/^req_sfo1-\d{13}-[0-9a-f]{12}$/);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'ops@meridian.test', '/atlas');
  await page.getByRole('navigation', { name: 'Atlas' }).getByRole('link', { name: 'Explain a request' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Explain a request' })).toBeVisible();
  await expect(page.getByText('Which request?')).toBeVisible();
  await shots(page, 'atlas-requests-empty');

  // Garbage: the field says what a request ID looks like.
  const field = page.getByLabel('Request ID');
  await field.fill('not-a-request-id');
  await field.press('Enter');
  await expect(page).toHaveURL(/\/atlas\/requests\?id=not-a-request-id$/);
  await expect(page.getByLabel('Request ID')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('That is not a request ID')).toBeVisible();

  // The real request, pasted and submitted from the keyboard.
  await page.getByLabel('Request ID').fill(id);
  await page.getByLabel('Request ID').press('Enter');
  const explanation = page.getByTestId('explanation');
  await expect(explanation).toBeVisible();
  await expect(explanation.getByRole('heading', { level: 2, name: 'Served' })).toBeVisible();
  await expect(explanation).toContainText('HTTP 200');
  const story = page.getByTestId('story');
  await expect(story).toContainText('REST API (/v1)');
  await expect(story).toContainText('An API key');
  // The key by its ID (as the API lists it), never its secret.
  const keys = (await (
    await request.get('/v1/api-keys', { headers: { authorization: `Bearer ${apiKey('acme')}` } })
  ).json()) as { data: { id: string; prefix: string }[] };
  const keyId = keys.data.find((k) => apiKey('acme').includes(k.prefix))!.id;
  await expect(story).toContainText(keyId);
  await expect(story).not.toContainText(apiKey('acme'));
  await expect(page.getByTestId('served-by')).toHaveText(first.headers()['x-meridian-served-by']!);
  await expect(page.getByTestId('candidates')).toContainText('chosen');
  await shots(page, 'atlas-requests-explained');

  // Its trace: the other request, linked to its own explanation.
  const trace = page.getByRole('region', { name: 'Other requests of this trace, oldest first' });
  await trace.getByRole('link', { name: secondId }).click();
  await expect(page).toHaveURL(new RegExp(`\\?id=${secondId}$`));
  await expect(page.getByTestId('story')).toContainText('/me');
  await expect(
    page.getByRole('region', { name: 'Other requests of this trace, oldest first' }).getByRole('link', { name: id }),
  ).toBeVisible();

  // A well-formed ID nobody made.
  await page.goto(`/atlas/requests?id=req_sfo1-${Date.now() - 60_000}-000000000000`);
  await expect(page.getByTestId('explain-not-found')).toContainText('kept 24');
  await shots(page, 'atlas-requests-not-found');

  // The link works without JavaScript, and so does the form.
  const noJs = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noJs.newPage();
  await plain.goto(`/atlas/requests?id=${id}`);
  await expect(plain.getByTestId('explanation')).toContainText('HTTP 200');
  await plain.getByLabel('Request ID').fill(secondId);
  await plain.getByRole('button', { name: 'Explain' }).click();
  await expect(plain).toHaveURL(new RegExp(`\\?id=${secondId}$`));
  await expect(plain.getByTestId('story')).toContainText('/me');
  await noJs.close();
});
