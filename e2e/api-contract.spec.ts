// Every API path answers with X-Request-Id, X-Region and X-Region-Source, the ID's region
// equal to X-Region; /v1/openapi.json is the same on every gateway; /metrics scrapes cleanly.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { parsePrometheusText } from '../dev/testing/prometheus';

const REQUEST_ID = /^req_([a-z]{3}[1-9][0-9]*|global)-\d{13}-[0-9a-f]{12}$/;

function originFor(baseURL: string, region?: string) {
  const u = new URL(baseURL);
  if (region) u.hostname = `${region}.localhost`;
  return u.origin;
}

async function call(page: Page, method: string, path: string, headers: Record<string, string> = {}) {
  return page.evaluate(
    async ({ method, path, headers }) => {
      const res = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...headers },
        body: method === 'GET' ? undefined : '{}',
      });
      const text = await res.text();
      return {
        status: res.status,
        id: res.headers.get('X-Request-Id'),
        region: res.headers.get('X-Region'),
        source: res.headers.get('X-Region-Source'),
        text,
      };
    },
    { method, path, headers },
  );
}

test('every API path carries a request ID whose region is X-Region', async ({ page, baseURL }) => {
  test.setTimeout(180_000); // some 600 requests one after another, on a machine that may be busy
  await page.goto(`${originFor(baseURL!)}/routing`);
  const doc = JSON.parse((await call(page, 'GET', '/v1/openapi.json')).text) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const targets: [string, string][] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    const concrete = path.replace(/\{[^}]+\}/g, 'cls_00000000000000000000000000');
    for (const method of Object.keys(ops)) targets.push([method.toUpperCase(), `/v1${concrete}`]);
  }
  expect(targets.length).toBeGreaterThanOrEqual(5);
  targets.push(
    ['GET', '/v1/openapi.json'],
    ['GET', '/metrics'],
    ['GET', '/health/region'],
    ['GET', '/v1/no/such/path'],
    ['DELETE', '/v1/ping'],
    ['GET', '/api/trpc/routing.resolve?input=%7B%22json%22%3A%7B%7D%7D'],
    ['GET', '/api/trpc/no.such.procedure'],
  );
  for (const region of [undefined, 'lax1']) {
    await page.goto(`${originFor(baseURL!, region)}/routing`);
    for (const [method, path] of targets) {
      for (const headers of [{}, { 'X-Region': 'ams1' }, { 'X-Region': 'bogus' }] as Record<string, string>[]) {
        const r = await call(page, method, path, headers);
        const where = `${method} ${path} ${JSON.stringify(headers)} at ${region ?? 'global'} → ${r.status}`;
        expect(r.id, where).toMatch(REQUEST_ID);
        expect(REQUEST_ID.exec(r.id!)?.[1], where).toBe(r.region);
        expect(r.source, where).toMatch(
          /^(subdomain|header|query|body|project-session|session|resource|fan-out|gateway)$/,
        );
        expect(r.status, where).toBeLessThan(500);
        if (r.status >= 400 && path.startsWith('/v1')) {
          const body = JSON.parse(r.text) as { error: { code: string; message: string; request_id: string } };
          expect(body.error.request_id, where).toBe(r.id);
          expect(body.error.code, where).toMatch(/^[a-z_]+$/);
        }
      }
    }
  }
});

test('/v1/openapi.json is identical on every gateway', async ({ page, baseURL }) => {
  const docs: string[] = [];
  for (const region of [undefined, 'sfo1', 'lax1', 'ams1']) {
    await page.goto(`${originFor(baseURL!, region)}/routing`);
    docs.push((await call(page, 'GET', '/v1/openapi.json')).text);
  }
  expect(new Set(docs).size).toBe(1);
  const doc = JSON.parse(docs[0]!) as { openapi: string; paths: Record<string, unknown> };
  expect(doc.openapi).toMatch(/^3\./);
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining(['/routing/resolve', '/atlas/regions', '/atlas/regions/{code}']),
  );
});

test('/metrics scrapes as valid Prometheus text', async ({ request }) => {
  await request.get('/v1/routing/resolve', { headers: { 'X-Region': 'lax1' } });
  const res = await request.get('/metrics');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/plain');
  const { families, samples } = parsePrometheusText(await res.text());
  for (const f of [
    'meridian_region_resolution_seconds',
    'meridian_requests_total',
    'meridian_errors_total',
    'meridian_request_duration_seconds',
  ]) {
    expect(families.has(f), f).toBe(true);
  }
  expect(
    samples.some(
      (s) => s.name === 'meridian_requests_total' && s.labels.region === 'lax1' && s.labels.transport === 'rest',
    ),
  ).toBe(true);
});
