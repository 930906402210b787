// Explain through the real server, as someone probing it: another organization's recent request
// and an unknown ID of the same moment take the same path (their 404 latencies are alike, not
// milliseconds against a second), an ID from the future is refused at once, and one caller gets
// at most EXPLAIN_LIMIT explanations a minute.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { testRequestId } from '../../dev/testing/decisions';
import { resetEnvCache } from '../../server/env';
import { parseRequestId } from '../../server/ids';
import { EXPLAIN_LIMIT } from '../../server/routing/explain';
import { contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
const key = (org: string, region: string) => f().keys.find((k) => k.org === org && k.region === region)!.key;

interface Answer {
  status: number;
  headers: Headers;
  body: { error?: { code: string; message: string; request_id: string } };
  ms: number;
}

async function get(path: string, headers: Record<string, string>): Promise<Answer> {
  const t = performance.now();
  const res = await contractFetch(`${f().baseUrl}${path}`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {}, ms: performance.now() - t };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

let alice: Record<string, string>;

beforeAll(async () => {
  process.env.AUTH_SECRET = f().authSecret;
  resetEnvCache();
  const [u] = await query<{ id: string; sv: number; org: string }>(
    f().adminPrimary,
    `SELECT u.id, u.session_version AS sv, o.id AS org FROM users u, organizations o
      WHERE u.email = 'alice@acme.test' AND o.slug = 'acme'`,
  );
  alice = { cookie: await sessionCookie(u!.id, u!.org, null, u!.sv), origin: f().baseUrl };
});

describe('explain is no oracle and no lever', () => {
  it("another organization's recent request and an unknown ID of the same moment: the same 404, alike in time", async () => {
    const theirs: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 6; i++) {
      // globex's request, a moment old: its record exists (buffered or written) while acme asks.
      const made = await get('/v1/projects', { Authorization: `Bearer ${key('globex', 'sfo1')}` });
      expect(made.status).toBe(200);
      const id = made.headers.get('X-Request-Id')!;
      const p = parseRequestId(id)!;
      const twin = testRequestId(p.region, p.ms);
      // Asked side by side, so both see the same load; the order alternates.
      const pair = [`/v1/requests/${id}`, `/v1/requests/${twin}`];
      if (i % 2) pair.reverse();
      const [a, b] = await Promise.all(pair.map((path) => get(path, alice)));
      const [t, u] = i % 2 ? [b!, a!] : [a!, b!];
      expect([t.status, t.body.error?.code]).toEqual([404, 'not_found']);
      expect([u.status, u.body.error?.code]).toEqual([404, 'not_found']);
      expect(t.body.error?.message).toBe(u.body.error?.message);
      theirs.push(t.ms);
      unknown.push(u.ms);
    }
    // An unknown ID under 5 s old is looked for again for about a second; theirs must be too.
    expect(Math.min(...theirs), JSON.stringify({ theirs, unknown })).toBeGreaterThan(700);
    expect(Math.abs(median(theirs) - median(unknown)), JSON.stringify({ theirs, unknown })).toBeLessThan(400);
  });

  it('an ID from the future is 400 invalid_request at once', async () => {
    const future = testRequestId('sfo1', Date.now() + 10 * 60_000);
    const tries = [];
    for (let i = 0; i < 3; i++) tries.push(await get(`/v1/requests/${future}`, alice));
    for (const res of tries) {
      expect([res.status, res.body.error?.code]).toEqual([400, 'invalid_request']);
      expect(res.body.error?.message).toMatch(/future/);
    }
    // Not the second of waits an unknown recent ID gets (the quickest of three: one answer may
    // wait on a busy machine).
    expect(Math.min(...tries.map((r) => r.ms))).toBeLessThan(700);
    const atlas = await get(`/v1/atlas/requests/${future}`, alice);
    expect(atlas.status).toBe(403); // customers never reach Atlas, future or not
  });

  it('one caller gets at most EXPLAIN_LIMIT explanations a minute, then 429 rate_limited with Retry-After', async () => {
    // An expired ID: answered without a look-up, so the limit is reached quickly.
    const old = testRequestId('sfo1', Date.now() - 25 * 60 * 60_000);
    const caller = { Authorization: `Bearer ${key('acme', 'sfo1')}` };
    const answers: Answer[] = [];
    for (let i = 0; i < EXPLAIN_LIMIT.points + 1; i++) answers.push(await get(`/v1/requests/${old}`, caller));
    expect(answers.slice(0, EXPLAIN_LIMIT.points).every((a) => a.status === 404)).toBe(true);
    const refused = answers.at(-1)!;
    expect([refused.status, refused.body.error?.code]).toEqual([429, 'rate_limited']);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(refused.headers.get('RateLimit-Policy')).toContain(EXPLAIN_LIMIT.name);
    // Per principal: another caller of the same organization is not refused.
    const other = await get(`/v1/requests/${old}`, alice);
    expect(other.status).toBe(404);
  });
});
