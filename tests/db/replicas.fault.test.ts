// Read-your-writes and honest degradation, against the real topology under the running app:
// replay paused and delayed, a replica stopped, the primary stopped under load, a replica lagging.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EmbeddedTopology } from '../../dev/embedded-pg/servers';
import { resetEnvCache } from '../../server/env';
import { memberCookie, statusAtRegionHost } from '../../dev/testing/app';
import { query, waitForReplay } from '../../dev/testing/db';
import { parsePrometheusText } from '../../dev/testing/prometheus';
import { checkRaw, contractFetch } from '../../dev/testing/contract';

const f = () => inject('faults');
/** Write → read cycles of the drill below (RYW_CYCLES=1000 for the long one: README.md#tests). */
const CYCLES = Number(process.env.RYW_CYCLES ?? 400);
const key = (org: string, region: string) => f().keys.find((k) => k.org === org && k.region === region)!.key;

let topo: EmbeddedTopology;
beforeAll(async () => {
  // Re-attach to the running topology (all servers up: nothing is started).
  topo = await EmbeddedTopology.up({ dir: f().dir, regions: ['sfo1', 'lax1', 'ams1'] });
});
afterAll(async () => {
  // Leave everything running and replaying for the next file.
  for (const r of ['lax1', 'ams1']) {
    await query(f().adminReplicas[r]!, 'SELECT pg_wal_replay_resume()').catch(() => {});
  }
});

interface Res {
  status: number;
  headers: Headers;
  body: unknown;
}

async function api(
  method: string,
  path: string,
  opts: { key: string; body?: unknown; headers?: Record<string, string> },
): Promise<Res> {
  const res = await contractFetch(`${f().baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${opts.key}`,
      ...(opts.body ? { 'Content-Type': 'application/json' } : {}),
      ...opts.headers,
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** fetch() won't send a Host header of our choosing; node:http will (the gateway is named by it). */
function getWithHost(url: string, host: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { host } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => {
          try {
            checkRaw('GET', new URL(url).pathname + new URL(url).search, res.statusCode ?? 0, res.headers, body);
          } catch (e) {
            reject(e);
            return;
          }
          resolve(JSON.parse(body));
        });
      })
      .on('error', reject);
  });
}

const uniq = () => `p-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

/** The app's own histogram of bookmark waits, summarised (p50/p95 upper bounds by bucket). */
async function bookmarkWaits(): Promise<string> {
  const { samples } = parsePrometheusText(await (await fetch(`${f().baseUrl}/metrics`)).text());
  const out: string[] = [];
  for (const outcome of ['replica', 'primary']) {
    const buckets = samples.filter(
      (x) => x.name === 'meridian_bookmark_wait_seconds_bucket' && x.labels.outcome === outcome,
    );
    const total = buckets.find((b) => b.labels.le === '+Inf')?.value ?? 0;
    const at = (q: number) => buckets.find((b) => b.value >= q * total)?.labels.le ?? '-';
    out.push(`bookmark waits ending on ${outcome}: n=${total} p50≤${at(0.5)}s p95≤${at(0.95)}s`);
  }
  return out.join('; ');
}

async function setApplyDelay(region: string, delay: string): Promise<void> {
  await query(f().adminReplicas[region]!, `ALTER SYSTEM SET recovery_min_apply_delay = '${delay}'`);
  await query(f().adminReplicas[region]!, 'SELECT pg_reload_conf()');
}

describe('read-your-writes with causal bookmarks', () => {
  it(`${CYCLES} write-then-read cycles with replay paused or delayed at random: 0 stale reads`, async () => {
    const k = key('globex', 'lax1');
    const replica = f().adminReplicas.lax1!;
    let stale = 0;
    const servedBy: Record<string, number> = {};
    let paused = false;
    for (let i = 0; i < CYCLES; i++) {
      if (i % 25 === 0) {
        const roll = Math.random();
        if (paused) await query(replica, 'SELECT pg_wal_replay_resume()');
        paused = false;
        if (roll < 0.35) {
          await query(replica, 'SELECT pg_wal_replay_pause()');
          paused = true;
        } else if (roll < 0.7) {
          await setApplyDelay('lax1', `${20 + Math.floor(Math.random() * 150)}ms`);
        } else {
          await setApplyDelay('lax1', '0');
        }
      }
      const created = await api('POST', '/v1/projects', { key: k, body: { name: uniq() } });
      expect(created.status).toBe(201);
      const bookmark = created.headers.get('X-Meridian-Bookmark');
      expect(bookmark).toBeTruthy();
      const id = (created.body as { id: string }).id;
      const got = await api('GET', `/v1/projects/${id}`, { key: k, headers: { 'X-Meridian-Bookmark': bookmark! } });
      if (got.status !== 200) stale++;
      const by = got.headers.get('X-Meridian-Served-By') ?? '?';
      servedBy[by] = (servedBy[by] ?? 0) + 1;
    }
    await query(replica, 'SELECT pg_wal_replay_resume()');
    await setApplyDelay('lax1', '0');
    console.log(
      `[faults] ${CYCLES} cycles: stale=${stale}, served by ${JSON.stringify(servedBy)}, ${await bookmarkWaits()}`,
    );
    expect(stale).toBe(0);
    // Both paths were exercised: the replica when it had caught up, the primary when it had not.
    expect(servedBy['replica:lax1'] ?? 0).toBeGreaterThan(0);
    expect(servedBy.primary ?? 0).toBeGreaterThan(0);
  });

  it('without the bookmark, a principal that did not write reads stale (the test can fail); the writer does not', async () => {
    // The writer's own reads are fresh with or without the bookmark (every gateway knows its last
    // write position: server/db/write-positions.ts); another principal of the same organization,
    // reading the same rows at once, owes no wait and reads the paused replica.
    process.env.AUTH_SECRET = f().authSecret;
    resetEnvCache();
    const cookie = await memberCookie(f().databaseUrl, 'bob@globex.test', 'globex');
    const atLax1 = (path: string) => statusAtRegionHost(f().baseUrl, 'lax1', path, { cookie });
    const k = key('globex', 'lax1');
    // A paused replica serves only until the policy's lag limit (1 s) drops it: each cycle pauses
    // anew, so a slow moment costs that cycle its window, not the test its proof.
    let otherStale = 0;
    let ownStale = 0;
    let cycles = 0;
    while (cycles < 20 && (otherStale === 0 || cycles < 5)) {
      cycles++;
      await query(f().adminReplicas.lax1!, 'SELECT pg_wal_replay_pause()');
      try {
        const created = await api('POST', '/v1/projects', { key: k, body: { name: uniq() } });
        const id = (created.body as { id: string }).id;
        if ((await atLax1(`/v1/projects/${id}`)) === 404) otherStale++;
        if ((await api('GET', `/v1/projects/${id}`, { key: k })).status === 404) ownStale++;
      } finally {
        await query(f().adminReplicas.lax1!, 'SELECT pg_wal_replay_resume()');
      }
      await waitForReplay(f().adminPrimary, f().adminReplicas.lax1!);
    }
    console.log(`[faults] without the bookmark: another principal read stale ${otherStale} of ${cycles} cycles`);
    expect(otherStale).toBeGreaterThan(0);
    expect(ownStale).toBe(0);
  });

  it('rejects a tampered bookmark', async () => {
    const r = await api('GET', '/v1/projects', {
      key: key('globex', 'lax1'),
      headers: { 'X-Meridian-Bookmark': 'b1.zzzz.AAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(r.status).toBe(400);
    expect((r.body as { error: { code: string } }).error.code).toBe('invalid_request');
  });
});

describe('a replica goes down', () => {
  it('reads still answer 200, from the primary, marked degraded; the replica is used again after restart', async () => {
    const k = key('globex', 'lax1');
    await eventually(
      async () => (await api('GET', '/v1/projects', { key: k })).headers.get('X-Meridian-Served-By') === 'replica:lax1',
    );
    await topo.stopServer('lax1', 'immediate');
    try {
      for (let i = 0; i < 50; i++) {
        const r = await api('GET', '/v1/projects', { key: k });
        expect(r.status).toBe(200);
        expect(r.headers.get('X-Meridian-Served-By')).toBe('primary');
        expect(r.headers.get('X-Degraded')).toBe('true');
        expect(r.headers.get('X-Degraded-Reason')).toBe('replica_down');
      }
      const health = (await getWithHost(
        `${f().baseUrl}/health/region`,
        `lax1.localhost:${new URL(f().baseUrl).port}`,
      )) as {
        region: string;
        replica: { status: string; serving_reads: boolean };
        primary: { reachable: boolean };
      };
      expect(health.region).toBe('lax1');
      expect(health.replica).toMatchObject({ status: 'down', serving_reads: false });
      expect(health.primary.reachable).toBe(true);
    } finally {
      await topo.startServer('lax1');
    }
    await eventually(async () => {
      const r = await api('GET', '/v1/projects', { key: k });
      return (
        r.status === 200 && r.headers.get('X-Meridian-Served-By') === 'replica:lax1' && !r.headers.get('X-Degraded')
      );
    });
  });
});

describe('fan-out with one region’s replica down', () => {
  it('GET /v1/compute/clusters still lists every region (lax1 from the primary), marked degraded', async () => {
    process.env.AUTH_SECRET = f().authSecret;
    resetEnvCache();
    const cookie = await memberCookie(f().databaseUrl, 'bob@globex.test', 'globex');
    const list = () =>
      contractFetch(`${f().baseUrl}/v1/compute/clusters?limit=200`, { headers: { cookie } }).then(async (r) => ({
        status: r.status,
        headers: r.headers,
        body: (await r.json()) as { data: { region: string }[]; regions: Record<string, { status: string }> },
      }));
    const healthy = await list();
    expect(healthy.status).toBe(200);
    await topo.stopServer('lax1', 'immediate');
    try {
      await eventually(async () => (await list()).headers.get('X-Degraded-Reason') === 'replica_down');
      const r = await list();
      expect(r.status).toBe(200);
      expect(r.headers.get('X-Region-Source')).toBe('fan-out');
      expect(r.headers.get('X-Degraded')).toBe('true');
      expect(r.headers.get('X-Degraded-Reason')).toBe('replica_down');
      expect(Object.keys(r.body.regions).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
      expect(Object.values(r.body.regions).every((x) => x.status === 'ok')).toBe(true);
      // Nothing missing: the same clusters as with every replica up.
      expect(r.body.data.length).toBe(healthy.body.data.length);
      expect(new Set(r.body.data.map((c) => c.region))).toEqual(new Set(['sfo1', 'lax1', 'ams1']));
    } finally {
      await topo.startServer('lax1');
    }
  });
});

describe('the primary goes down under load', () => {
  it('mutations answer 201 or 503 + Retry-After, none lost or doubled; reads go on; writes resume after restart', async () => {
    const k = key('globex', 'lax1');
    const outcomes = new Map<string, number>(); // idempotency key → status
    const names = new Map<string, string>(); // idempotency key → project name
    let readsOk = 0;
    let readsFailed = 0;
    const readFailures: string[] = [];
    let readsMarkedPrimaryDown = 0;
    // Reads by the writers' own key carry their last write's position. A write acknowledged just
    // before the primary died may never have reached the replica (asynchronous streaming): such a
    // read must refuse (503 primary_unavailable), not answer without the caller's write.
    let ownReadsRefused = 0;
    process.env.AUTH_SECRET = f().authSecret;
    resetEnvCache();
    const cookie = await memberCookie(f().databaseUrl, 'bob@globex.test', 'globex');
    let running = true;
    let n = 0;
    const writer = async () => {
      while (running) {
        const idem = `idem-${n++}-${Math.random().toString(36).slice(2)}`;
        const name = uniq();
        names.set(idem, name);
        const r = await api('POST', '/v1/projects', { key: k, body: { name }, headers: { 'Idempotency-Key': idem } });
        if (r.status === 503) {
          expect(r.headers.get('Retry-After')).toMatch(/^\d+$/);
          expect((r.body as { error: { code: string } }).error.code).toBe('primary_unavailable');
        } else {
          expect(r.status).toBe(201);
        }
        outcomes.set(idem, r.status);
      }
    };
    // Another principal of the same organization, who wrote nothing: its reads never fail.
    const reader = async () => {
      while (running) {
        const res = await contractFetch(`${f().baseUrl}/v1/projects?limit=5`, { headers: { cookie } });
        await res.text();
        if (res.status === 200) readsOk++;
        else {
          readsFailed++;
          readFailures.push(`other principal: ${res.status} ${res.headers.get('X-Request-Id')}`);
        }
        if (res.headers.get('X-Degraded-Reason') === 'primary_down') readsMarkedPrimaryDown++;
      }
    };
    const ownReader = async () => {
      while (running) {
        const r = await api('GET', '/v1/projects?limit=5', { key: k });
        if (r.status === 200) continue;
        const code = (r.body as { error?: { code?: string } } | null)?.error?.code;
        if (r.status === 503 && code === 'primary_unavailable' && /^\d+$/.test(r.headers.get('Retry-After') ?? ''))
          ownReadsRefused++;
        else readFailures.push(`own key: ${r.status} ${JSON.stringify(r.body)}`);
      }
    };
    const load = [writer(), writer(), reader(), ownReader()];
    await new Promise((r) => setTimeout(r, 500));
    await topo.stopServer('primary', 'immediate');
    const readsBefore = readsOk;
    // Down until the load has met the outage (a refused write, a read served marked primary_down,
    // more reads served), at least 2 s: on a busy machine one request may take most of that.
    const downAt = Date.now();
    await eventually(
      async () =>
        Date.now() - downAt >= 2_000 &&
        [...outcomes.values()].includes(503) &&
        readsMarkedPrimaryDown > 0 &&
        readsOk > readsBefore,
      20_000,
    );
    const readsDuringOutage = readsOk - readsBefore;
    await topo.startServer('primary');
    await eventually(
      async () => (await api('POST', '/v1/projects', { key: k, body: { name: uniq() } })).status === 201,
      30_000,
    );
    running = false;
    await Promise.all(load);

    const failed = [...outcomes].filter(([, s]) => s === 503).map(([idem]) => idem);
    const succeeded = [...outcomes].filter(([, s]) => s === 201).map(([idem]) => idem);
    console.log(
      `[faults] primary outage: ${succeeded.length} writes 201, ${failed.length} writes 503, reads ok ${readsOk} (${readsDuringOutage} during the outage), reads failed ${readsFailed}; ` +
        `reads of the writers' own key refused ${ownReadsRefused}`,
    );
    expect(failed.length).toBeGreaterThan(0);
    expect(readsDuringOutage).toBeGreaterThan(0);
    expect(readsMarkedPrimaryDown).toBeGreaterThan(0); // answered from the replica, marked degraded
    expect(readFailures).toEqual([]);

    // The client retries its failed writes with the same keys: each lands exactly once.
    for (const idem of failed) {
      const r = await api('POST', '/v1/projects', {
        key: k,
        body: { name: names.get(idem) },
        headers: { 'Idempotency-Key': idem },
      });
      expect(r.status).toBe(201);
    }
    const all = [...outcomes.keys()].map((idem) => names.get(idem)!);
    const rows = await query<{ name: string; n: string }>(
      f().adminPrimary,
      'SELECT p.name, count(*)::text AS n FROM projects p WHERE p.name = ANY($1) GROUP BY p.name',
      [all],
    );
    const counts = new Map(rows.map((r) => [r.name, Number(r.n)]));
    for (const name of all) expect(counts.get(name), name).toBe(1); // none lost, none doubled
  });
});

describe('a replica lags past the threshold', () => {
  it('is excluded from reads (degraded: replica_lagging) and readmitted once it catches up', async () => {
    const k = key('globex', 'ams1');
    await eventually(
      async () => (await api('GET', '/v1/projects', { key: k })).headers.get('X-Meridian-Served-By') === 'replica:ams1',
    );
    await query(f().adminReplicas.ams1!, 'SELECT pg_wal_replay_pause()');
    try {
      // Writes the replica does not replay; after REPLICA_MAX_LAG_SECONDS it counts as lagging.
      await eventually(async () => {
        await api('POST', '/v1/projects', { key: k, body: { name: uniq() } });
        const r = await api('GET', '/v1/projects', { key: k });
        return r.headers.get('X-Degraded-Reason') === 'replica_lagging';
      }, 20_000);
      const r = await api('GET', '/v1/projects', { key: k });
      expect(r.status).toBe(200);
      expect(r.headers.get('X-Meridian-Served-By')).toBe('primary');
      expect(r.headers.get('X-Degraded')).toBe('true');
    } finally {
      await query(f().adminReplicas.ams1!, 'SELECT pg_wal_replay_resume()');
    }
    await eventually(async () => {
      const r = await api('GET', '/v1/projects', { key: k });
      return r.headers.get('X-Meridian-Served-By') === 'replica:ams1' && !r.headers.get('X-Degraded');
    });
  });
});
