// The three doors agree: the same cascade case sent through the REST API, tRPC and a server
// action resolves to the same region and source, or fails with the same error code. And each
// request explains itself by its ID (an operator's GET /v1/atlas/requests/{id}): its door, the
// region and the cascade step that matched, or the refusal's reason.
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signIn } from './sign-in';
import { shot } from './checks';

interface Case {
  name: string;
  kind: 'read' | 'write';
  subdomain?: string;
  header?: string;
  query?: string;
  body?: string;
  expected: { region: string; source: string } | { code: string };
}

const CASES: Case[] = [
  { name: 'subdomain (read)', kind: 'read', subdomain: 'lax1', expected: { region: 'lax1', source: 'subdomain' } },
  { name: 'subdomain (write)', kind: 'write', subdomain: 'ams1', expected: { region: 'ams1', source: 'subdomain' } },
  {
    name: 'subdomain beats header',
    kind: 'read',
    subdomain: 'lax1',
    header: 'ams1',
    expected: { region: 'lax1', source: 'subdomain' },
  },
  { name: 'X-Region header', kind: 'read', header: 'ams1', expected: { region: 'ams1', source: 'header' } },
  {
    name: 'header beats query',
    kind: 'write',
    header: 'ams1',
    query: 'lax1',
    expected: { region: 'ams1', source: 'header' },
  },
  { name: '?region=', kind: 'read', query: 'lax1', expected: { region: 'lax1', source: 'query' } },
  {
    name: 'query beats body',
    kind: 'write',
    query: 'lax1',
    body: 'ams1',
    expected: { region: 'lax1', source: 'query' },
  },
  { name: 'body region', kind: 'write', body: 'ams1', expected: { region: 'ams1', source: 'body' } },
  { name: 'read with nothing fans out', kind: 'read', expected: { region: 'global', source: 'fan-out' } },
  { name: 'write with nothing', kind: 'write', expected: { code: 'region_required' } },
  { name: 'malformed header', kind: 'read', header: 'SFO', expected: { code: 'invalid_region' } },
  { name: 'unknown query region', kind: 'write', query: 'nrt7', expected: { code: 'invalid_region' } },
  { name: 'malformed body region', kind: 'write', body: 'Amsterdam', expected: { code: 'invalid_region' } },
  { name: 'unknown subdomain', kind: 'read', subdomain: 'zzz9', expected: { code: 'invalid_region' } },
];

interface Outcome {
  region: string;
  source: string;
  code?: string;
  requestId: string;
}

function origin(baseURL: string, subdomain?: string): string {
  const u = new URL(baseURL);
  if (subdomain) u.hostname = `${subdomain}.localhost`;
  return u.origin;
}

/** REST and tRPC calls made by the browser itself, from the page's origin. */
async function viaFetch(page: Page, c: Case, door: 'rest' | 'trpc'): Promise<Outcome> {
  return page.evaluate(
    async ({ c, door }) => {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (c.header) headers['X-Region'] = c.header;
      const q = c.query ? `region=${encodeURIComponent(c.query)}` : '';
      const body = c.body ? { region: c.body } : {};
      let res: Response;
      if (door === 'rest') {
        res =
          c.kind === 'read'
            ? await fetch(`/v1/routing/resolve${q ? `?${q}` : ''}`, { headers })
            : await fetch(`/v1/routing/resolve${q ? `?${q}` : ''}`, {
                method: 'POST',
                headers,
                body: JSON.stringify(body),
              });
      } else {
        const input = encodeURIComponent(JSON.stringify({ json: {} }));
        res =
          c.kind === 'read'
            ? await fetch(`/api/trpc/routing.resolve?input=${input}${q ? `&${q}` : ''}`, { headers })
            : await fetch(`/api/trpc/routing.resolveWrite${q ? `?${q}` : ''}`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ json: body }),
              });
      }
      const json = await res.json();
      const code = door === 'rest' ? json.error?.code : json.error?.json?.data?.error?.code;
      return {
        region: res.headers.get('X-Region') ?? '',
        source: res.headers.get('X-Region-Source') ?? '',
        code,
        requestId: res.headers.get('X-Request-Id') ?? '',
      };
    },
    { c, door },
  );
}

async function viaAction(page: Page, c: Case): Promise<Outcome> {
  if (c.body) await page.getByLabel('Body region (optional)').fill(c.body);
  await page.getByRole('button', { name: c.kind === 'read' ? 'Resolve a read' : 'Resolve a write' }).click();
  const outcome = await page.getByTestId('outcome').textContent({ timeout: 10_000 });
  return {
    region: (await page.getByTestId('region').textContent()) ?? '',
    source: (await page.getByTestId('source').textContent()) ?? '',
    code: outcome === 'ok' ? undefined : (outcome ?? undefined),
    requestId: (await page.getByTestId('request-id').textContent()) ?? '',
  };
}

interface Explained {
  door: string;
  status: number;
  region: string | null;
  source: string | null;
  reason_code: string;
  error_code: string | null;
  cascade: { step: string; outcome: string }[];
}

let opsContext: BrowserContext;
let ops: APIRequestContext;

test.beforeAll(async ({ browser }) => {
  opsContext = await browser.newContext();
  const page = await opsContext.newPage();
  await signIn(page, 'ops@meridian.test', '/atlas');
  ops = opsContext.request;
});

test.afterAll(async () => {
  await opsContext?.close();
});

/** The explanation of a request, once its record is written (every 250 ms). */
async function explain(requestId: string): Promise<Explained> {
  let last = 0;
  for (let i = 0; i < 40; i++) {
    const res = await ops.get(`/v1/atlas/requests/${requestId}`);
    last = res.status();
    if (res.ok()) return (await res.json()) as Explained;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no explanation for ${requestId} (last status ${last})`);
}

const REFUSAL_REASON: Record<string, string> = { region_required: 'region_required', invalid_region: 'invalid_region' };

for (const c of CASES) {
  test(`three doors agree: ${c.name}`, async ({ browser, baseURL }) => {
    const ctx = await browser.newContext({ extraHTTPHeaders: c.header ? { 'X-Region': c.header } : {} });
    const page = await ctx.newPage();
    const url = `${origin(baseURL!, c.subdomain)}/routing${c.query ? `?region=${c.query}` : ''}`;
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Where does a request go?' })).toBeVisible();

    const outcomes = {
      rest: await viaFetch(page, c, 'rest'),
      trpc: await viaFetch(page, c, 'trpc'),
      action: await viaAction(page, c),
    };
    for (const [door, o] of Object.entries(outcomes)) {
      const region = /^req_([a-z0-9]+)-\d{13}-[0-9a-f]{12}$/.exec(o.requestId)?.[1];
      expect(region, `${door}: request ID ${o.requestId}`).toBe(o.region);
      if ('code' in c.expected) {
        expect(o.code, door).toBe(c.expected.code);
      } else {
        expect(o.code, door).toBeUndefined();
        expect({ region: o.region, source: o.source }, door).toEqual(c.expected);
      }
      // Its explanation says the same.
      const e = await explain(o.requestId);
      expect(e.door, door).toBe(door);
      if ('code' in c.expected) {
        expect([e.error_code, e.reason_code], door).toEqual([c.expected.code, REFUSAL_REASON[c.expected.code]]);
        expect(e.region, door).toBeNull();
      } else {
        expect({ region: e.region ?? o.region, source: e.source }, door).toEqual({
          region: o.region,
          source: c.expected.source,
        });
        expect(e.status, door).toBe(200);
        const matched = e.cascade.find((s) => s.outcome === 'matched');
        expect(matched?.step, door).toBe(c.expected.source);
      }
    }
    if (c.name === 'subdomain beats header') {
      await shot(page, 'routing-inspector');
    }
    await ctx.close();
  });
}
