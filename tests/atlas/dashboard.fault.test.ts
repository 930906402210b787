// The Atlas dashboard under faults, through real HTTP against the running app as the operator:
// with a replica stopped, then with the primary stopped, the regions API, a region's detail, the
// lag history, alerts, the audit log and the /atlas pages keep answering with what is known (the
// rest marked unknown/null, never a 500 or an error page), and everything recovers once the server
// is back. Reads that need a database go to a replica while the primary is down (every replica has
// all the data); only writes answer 503 primary_unavailable.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EmbeddedTopology } from '../../dev/embedded-pg/servers';
import { sessionCookie } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { resetEnvCache } from '../../server/env';
import { contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
const REGIONS = ['sfo1', 'lax1', 'ams1'];

interface Res<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

interface Health {
  replica_state: 'healthy' | 'lagging' | 'down' | 'unknown';
  serving_reads: boolean | null;
  lag_bytes: number | null;
  lag_seconds: number | null;
  primary_reachable: boolean | null;
}
interface Region {
  code: string;
  health: Health;
  degraded: boolean;
  reasons: string[];
}
interface Detail extends Region {
  capacity: unknown;
  clusters: unknown;
  counts_error: string | null;
}
interface Point {
  t: string;
  replica_up: boolean | null;
  lag_seconds: number | null;
}
interface History {
  regions: { region: string; points: Point[] }[];
}
interface Alert {
  id: string;
  kind: string;
  region: string;
  state: 'open' | 'closed';
  durable: boolean;
}
interface ErrorBody {
  error: { code: string; message: string; request_id: string };
}

let topo: EmbeddedTopology;
let cookie: string;

beforeAll(async () => {
  // Re-attach to the running topology (all servers up: nothing is started).
  topo = await EmbeddedTopology.up({ dir: f().dir, regions: REGIONS });
  process.env.AUTH_SECRET = f().authSecret;
  resetEnvCache();
  const [ops] = await query<{ id: string; sv: number }>(
    f().adminPrimary,
    `SELECT id, session_version AS sv FROM users WHERE email = 'ops@meridian.test'`,
  );
  cookie = await sessionCookie(ops!.id, null, null, ops!.sv);
});

afterAll(async () => {
  await polling?.stop().catch(() => {});
  // Leave the topology as we found it, whatever failed: every server running, the app seeing them.
  await topo.startServer('primary');
  for (const r of REGIONS) await topo.startServer(r);
  await eventually(async () => allHealthy(await regions()), 60_000).catch(() => {});
});

async function get<T = unknown>(path: string): Promise<Res<T>> {
  // Manual redirects: a signed-in operator bounced to /sign-in would be a failure, not a page.
  const res = await contractFetch(`${f().baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = null;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, text, body: body as T };
}

async function regions(): Promise<Res<{ data: Region[] }>> {
  return get('/v1/atlas/regions');
}

const byCode = (r: Res<{ data: Region[] }>, code: string) => r.body.data.find((x) => x.code === code)!;

/** Reasons other than traffic: earlier fault tests may have left 5xx in the 5-minute window. */
const healthReasons = (r: Region) => r.reasons.filter((x) => !x.startsWith('High error rate'));

function allHealthy(r: Res<{ data: Region[] }>): boolean {
  return (
    r.status === 200 &&
    REGIONS.every((code) => {
      const x = byCode(r, code);
      return x?.health.replica_state === 'healthy' && x.health.primary_reachable === true;
    })
  );
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not met within ${timeoutMs} ms`);
}

/** The page answers 200 with its own content: not an error page, not a redirect to sign-in. */
async function expectPage(path: string, heading: string): Promise<void> {
  const page = await get(path);
  expect(page.status, `${path}: ${page.text.slice(0, 300)}`).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.text).toContain(heading);
  // A server error streamed into the page (React's error template) or a redirect digest.
  expect(page.text).not.toContain('data-dgst');
  expect(page.text).not.toContain('NEXT_REDIRECT');
}

let polling: { stop: () => Promise<void> } | undefined;

/** Polls the Atlas reads while a server goes down and comes back: what did each answer? */
function poller() {
  const paths = [
    '/v1/atlas/regions',
    '/v1/atlas/regions/ams1',
    '/v1/atlas/alerts',
    '/v1/atlas/audit?limit=5',
    '/v1/atlas/lag-history?window=15m',
  ];
  const statuses: Record<number, number> = {};
  const failures: { path: string; status: number; retryAfter: string | null; body: string }[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const path = paths[i % paths.length]!;
      const r = await get(path);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status !== 200)
        failures.push({ path, status: r.status, retryAfter: r.headers.get('retry-after'), body: r.text });
      await new Promise((done) => setTimeout(done, 25)); // steady, not a load test: 2 shared cores
    }
  })();
  const stop = async () => {
    running = false;
    await loop;
  };
  polling = { stop };
  return { statuses, failures, stop };
}

/** Stops the poller: never a 500; a 503 (if any, in the moment before the monitor notices) is
 * retryable and says so in the contract's body. */
async function expectNoErrors(load: ReturnType<typeof poller>, label: string): Promise<void> {
  await load.stop();
  const total = Object.values(load.statuses).reduce((a, b) => a + b, 0);
  console.log(
    `[atlas faults] ${total} Atlas reads across ${label}: ${JSON.stringify(load.statuses)}` +
      (load.failures.length ? `; not 200: ${JSON.stringify(load.failures.slice(0, 5))}` : ''),
  );
  expect(total).toBeGreaterThan(0);
  for (const x of load.failures) {
    expect(x.status, `${x.path}: ${x.body}`).toBe(503);
    expect(x.retryAfter, x.path).toMatch(/^\d+$/);
    expect((JSON.parse(x.body) as ErrorBody).error.request_id).toMatch(/^req_/);
  }
}

/** The replica_down alert the first test sees open and closed (the second finds its audit events). */
let alertId: string | undefined;

describe('Atlas with a replica down', () => {
  it('shows ams1 down and degraded, the others healthy; history, alerts and pages answer; recovers on restart', async () => {
    await eventually(async () => allHealthy(await regions()), 30_000, 'every region healthy before the fault');
    const load = poller();
    const stoppedAt = Date.now();
    await topo.stopServer('ams1', 'immediate');
    try {
      await eventually(
        async () => byCode(await regions(), 'ams1').health.replica_state === 'down',
        10_000,
        'the monitor sees ams1 down',
      );
      const list = await regions();
      expect(list.status).toBe(200);
      const ams1 = byCode(list, 'ams1');
      expect(ams1.health).toMatchObject({
        replica_state: 'down',
        serving_reads: false,
        lag_bytes: null,
        lag_seconds: null,
        primary_reachable: true,
      });
      expect(ams1.degraded).toBe(true);
      expect(healthReasons(ams1)).toEqual(['Replica unreachable: reads go to the primary.']);
      for (const code of ['sfo1', 'lax1']) {
        const other = byCode(list, code);
        expect(other.health).toMatchObject({ replica_state: 'healthy', serving_reads: true, primary_reachable: true });
        expect(healthReasons(other), code).toEqual([]);
      }

      // The detail reads its counts from the primary instead, and says so.
      const detail = await get<Detail>('/v1/atlas/regions/ams1');
      expect(detail.status).toBe(200);
      expect(detail.body.health.replica_state).toBe('down');
      expect(detail.body.capacity).not.toBeNull();
      expect(detail.body.clusters).not.toBeNull();
      expect(detail.body.counts_error).toBeNull();
      expect(detail.headers.get('X-Meridian-Served-By')).toBe('primary');
      expect(detail.headers.get('X-Degraded-Reason')).toBe('replica_down');

      // The sampler stores an unreachable replica as a row with null lag: a gap, not a zero.
      let gapAt: string | undefined;
      await eventually(
        async () => {
          const h = await get<History>('/v1/atlas/lag-history?window=15m');
          expect(h.status).toBe(200);
          const points = (code: string) => h.body.regions.find((r) => r.region === code)?.points ?? [];
          const gap = points('ams1').find(
            (p) => Date.parse(p.t) > stoppedAt && p.replica_up === false && p.lag_seconds === null,
          );
          if (!gap) return false;
          gapAt = gap.t;
          // lax1 was measured in the same bin.
          return typeof points('lax1').find((p) => p.t === gap.t)?.lag_seconds === 'number';
        },
        20_000,
        'a null ams1 point in the lag history',
      );
      expect(gapAt).toBeDefined();

      // ATLAS_LAG_SAMPLES samples unreachable in a row open a stored replica_down alert.
      await eventually(
        async () => {
          const a = await get<{ data: Alert[] }>('/v1/atlas/alerts?region=ams1');
          expect(a.status).toBe(200);
          alertId = a.body.data.find((x) => x.kind === 'replica_down' && x.state === 'open' && x.durable)?.id;
          return alertId !== undefined;
        },
        40_000,
        'an open replica_down alert for ams1',
      );

      await expectPage('/atlas', 'Region health');
      await expectPage('/atlas/regions/ams1', 'Health, capacity and clusters of this region');
    } finally {
      await topo.startServer('ams1');
    }

    const restartedAt = Date.now();
    await eventually(
      async () => {
        const r = byCode(await regions(), 'ams1');
        return r.health.replica_state === 'healthy' && healthReasons(r).length === 0;
      },
      30_000,
      'ams1 healthy again',
    );
    // The first sample that reaches it again closes the alert, and the history resumes.
    await eventually(
      async () => {
        const a = await get<{ data: Alert[] }>('/v1/atlas/alerts?state=all&region=ams1');
        return a.body.data.find((x) => x.id === alertId)?.state === 'closed';
      },
      30_000,
      'the replica_down alert closed',
    );
    await eventually(
      async () => {
        const h = await get<History>('/v1/atlas/lag-history?window=15m&region=ams1');
        return (h.body.regions[0]?.points ?? []).some((p) => Date.parse(p.t) > restartedAt && p.lag_seconds !== null);
      },
      20_000,
      'ams1 measured again in the history',
    );
    const detail = await get<Detail>('/v1/atlas/regions/ams1');
    expect(detail.status).toBe(200);
    expect(detail.headers.get('X-Degraded')).toBeNull();
    await expectNoErrors(load, 'the ams1 outage');
  });
});

describe('Atlas with the primary down', () => {
  it('answers from the monitor and the replicas, marks the primary unreachable, refuses writes with 503; recovers on restart', async () => {
    await eventually(async () => allHealthy(await regions()), 30_000, 'every region healthy before the fault');
    const before = await get<Detail>('/v1/atlas/regions/ams1');
    expect(before.status).toBe(200);

    const load = poller();
    await new Promise((r) => setTimeout(r, 300));
    await topo.stopServer('primary', 'immediate');
    const stoppedAt = Date.now(); // nothing can be sampled after this
    try {
      await eventually(
        async () => (await regions()).body.data.every((r) => r.health.primary_reachable === false),
        10_000,
        'the monitor sees the primary down',
      );

      // The cards come from memory: 200, every region degraded with the reason in words,
      // the replicas still healthy.
      const list = await regions();
      expect(list.status).toBe(200);
      for (const code of REGIONS) {
        const r = byCode(list, code);
        expect(r.health).toMatchObject({ primary_reachable: false, replica_state: 'healthy' });
        expect(r.degraded).toBe(true);
        expect(healthReasons(r), code).toEqual([
          'Primary unreachable: writes fail with 503; reads go on from replicas.',
        ]);
      }

      // Counts come from the region's replica: the same as before the outage, nothing unknown.
      const detail = await get<Detail>('/v1/atlas/regions/ams1');
      expect(detail.status).toBe(200);
      expect(detail.headers.get('X-Meridian-Served-By')).toBe('replica:ams1');
      expect(detail.headers.get('X-Degraded-Reason')).toBe('primary_down');
      expect(detail.body.health.primary_reachable).toBe(false);
      expect(detail.body.counts_error).toBeNull();
      expect(detail.body.capacity).toEqual(before.body.capacity);
      expect(detail.body.clusters).toEqual(before.body.clusters);

      // Alerts: the live primary_down first, the stored ones read from a replica.
      const alerts = await get<{ data: Alert[] }>('/v1/atlas/alerts');
      expect(alerts.status).toBe(200);
      expect(alerts.headers.get('X-Meridian-Served-By')).toMatch(/^replica:/);
      expect(alerts.headers.get('X-Degraded-Reason')).toBe('primary_down');
      expect(alerts.body.data[0]).toMatchObject({
        kind: 'primary_down',
        region: 'sfo1',
        state: 'open',
        durable: false,
      });

      // The audit log, from a replica: it has the alert episode of the test above.
      const audit = await get<{ data: { action: string; target_id: string | null }[] }>(
        '/v1/atlas/audit?action=alert.*&limit=200',
      );
      expect(audit.status).toBe(200);
      expect(audit.headers.get('X-Meridian-Served-By')).toMatch(/^replica:/);
      expect(audit.headers.get('X-Degraded-Reason')).toBe('primary_down');
      const episode = audit.body.data.filter((e) => e.target_id === alertId).map((e) => e.action);
      expect(episode.sort()).toEqual(['alert.replica_down', 'alert.replica_reachable']);

      // Nothing is sampled while the primary is down: every region's history has a gap.
      await eventually(
        async () => {
          const h = await get<History>('/v1/atlas/lag-history?window=15m');
          expect(h.status).toBe(200);
          expect(h.headers.get('X-Meridian-Served-By')).toMatch(/^replica:/);
          const after = h.body.regions.flatMap((r) => r.points.filter((p) => Date.parse(p.t) > stoppedAt));
          if (after.length === 0) return false;
          expect(after.every((p) => p.lag_seconds === null && p.replica_up === null)).toBe(true);
          return true;
        },
        15_000,
        'a bin after the primary stopped',
      );

      // Writing needs the primary: the status form's PATCH is refused retryably (a no-op change,
      // so nothing would differ had it gone through).
      const patch = await contractFetch(`${f().baseUrl}/v1/atlas/regions/ams1`, {
        method: 'PATCH',
        headers: { cookie, origin: f().baseUrl, 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'active', reason: 'dashboard fault test: no-op during the outage' }),
      });
      expect(patch.status).toBe(503);
      expect(patch.headers.get('Retry-After')).toMatch(/^\d+$/);
      const refused = (await patch.json()) as ErrorBody;
      expect(refused.error.code).toBe('primary_unavailable');
      expect(refused.error.request_id).toMatch(/^req_/);

      await expectPage('/atlas', 'Region health');
      await expectPage('/atlas/regions/ams1', 'Health, capacity and clusters of this region');
    } finally {
      await topo.startServer('primary');
    }

    const restartedAt = Date.now();
    await eventually(
      async () => {
        const r = await regions();
        return allHealthy(r) && REGIONS.every((code) => healthReasons(byCode(r, code)).length === 0);
      },
      30_000,
      'every region healthy after the primary restarted',
    );
    await eventually(
      async () => {
        const a = await get<{ data: Alert[] }>('/v1/atlas/alerts');
        return a.status === 200 && !a.body.data.some((x) => x.kind === 'primary_down');
      },
      15_000,
      'the live primary_down alert gone',
    );
    // The sampler takes its lock again and samples.
    await eventually(
      async () => {
        const h = await get<History>('/v1/atlas/lag-history?window=15m&region=ams1');
        return (h.body.regions[0]?.points ?? []).some((p) => Date.parse(p.t) > restartedAt && p.lag_seconds !== null);
      },
      20_000,
      'the history sampled again',
    );
    await expectNoErrors(load, 'the primary outage');
  });
});
