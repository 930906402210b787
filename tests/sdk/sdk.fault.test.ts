// The SDK against the real app (the fault suite's: production build, real primary + replicas):
// its types match what the app serves; region keys need no region, a global key sees every
// region; a 421 is followed once; the bookmark makes it read its writes under replica delay;
// 503s during a primary restart are retried, a create landing exactly once; runs are waited for;
// a 421 naming an address outside the deployment (or http from https) is not followed: no key sent.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedTopology } from '../../dev/embedded-pg/servers';
import { memberCookie, statusAtRegionHost } from '../../dev/testing/app';
import { checkRaw } from '../../dev/testing/contract';
import { query } from '../../dev/testing/db';
import { eventually } from '../../dev/testing/eventually';
import { resetEnvCache } from '../../server/env';
import { defaultFetch, MeridianClient, MeridianError, type RetryInfo, type RunStep } from '../../sdk/src/index';
import { openapiTypes } from '../../sdk/scripts/openapi-types';
import { f, globalKey, globalUrl, key, regionUrl, startWorker, uniq } from './harness';

const REQUEST_ID = /^req_[a-z0-9]+-\d+-[0-9a-f]{12}$/;

let topo: EmbeddedTopology;
let worker: ReturnType<typeof startWorker> | undefined;

beforeAll(async () => {
  topo = await EmbeddedTopology.up({ dir: f().dir, regions: ['sfo1', 'lax1', 'ams1'] });
  worker = startWorker();
});
afterAll(async () => {
  await worker?.stop();
  await setApplyDelay('sfo1', '0').catch(() => {});
  await query(f().adminReplicas.sfo1!, 'SELECT pg_wal_replay_resume()').catch(() => {});
});

async function setApplyDelay(region: string, delay: string): Promise<void> {
  await query(f().adminReplicas[region]!, `ALTER SYSTEM SET recovery_min_apply_delay = '${delay}'`);
  await query(f().adminReplicas[region]!, 'SELECT pg_reload_conf()');
}

/**
 * The SDK's own fetch with every answer checked against GET /v1/openapi.json; what breaks it fails
 * the test that saw it (after the call: a throw inside fetch would read as a network error).
 */
const violations: string[] = [];
async function checkedFetch(req: Request): Promise<Response> {
  const res = await defaultFetch(req);
  try {
    checkRaw(req.method, req.url, res.status, res.headers, await res.clone().text());
  } catch (e) {
    violations.push((e as Error).message);
  }
  return res;
}
afterEach(() => {
  expect(violations.splice(0)).toEqual([]);
});

const client = (apiKey: string, extra: Partial<ConstructorParameters<typeof MeridianClient>[0]> = {}) =>
  new MeridianClient({ apiKey, globalUrl: globalUrl(), fetch: checkedFetch, ...extra });

describe('types', () => {
  it('the checked-in types are what the running app’s /v1/openapi.json generates', async () => {
    const doc = await (await fetch(`${f().baseUrl}/v1/openapi.json`)).json();
    const served = await openapiTypes(doc);
    const checkedIn = fs.readFileSync(path.resolve(import.meta.dirname, '../../sdk/src/generated/openapi.ts'), 'utf8');
    // On failure: `npm run generate -w sdk` and commit sdk/src/generated/openapi.ts.
    expect(checkedIn === served, 'sdk/src/generated/openapi.ts differs from the served document').toBe(true);
  });
});

describe('regions', () => {
  it('a single-region key never names a region: list, create with a name only, get; source key', async () => {
    const acme = client(key('acme', 'sfo1'));
    expect(acme.baseUrl).toBe(regionUrl('sfo1'));
    const page = await acme.clusters.list();
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((c) => c.region === 'sfo1')).toBe(true);
    expect((await acme.api.GET('/routing/resolve', { params: { query: {} } })).data?.source).toBe('subdomain');
    // At the global address the region comes from the key, and the response says so.
    const atGlobal = client(key('acme', 'sfo1'), { baseUrl: globalUrl() });
    const how = await atGlobal.api.GET('/routing/resolve', { params: { query: {} } });
    expect(how.response.headers.get('X-Region-Source')).toBe('key');
    expect(how.data).toMatchObject({ region: 'sfo1', source: 'key' });
    expect((await atGlobal.clusters.list()).data.every((c) => c.region === 'sfo1')).toBe(true);
    const created = await acme.clusters.create({ name: uniq('one') });
    expect(created.cluster).toMatchObject({
      region: 'sfo1',
      status: 'pending',
      template: 'k8s-standard',
      node_count: 3,
    });
    expect((await acme.clusters.get(created.cluster.id)).id).toBe(created.cluster.id);
  });

  it('a multi-region global key lists every region with each region’s status; --region filters; get follows the resource', async () => {
    const globex = client(globalKey('globex'));
    expect(globex.baseUrl).toBe(globalUrl());
    const all = await globex.clusters.list({ limit: 200 });
    expect(Object.keys(all.regions ?? {}).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    for (const r of Object.values(all.regions!)) expect(r.status).toBe('ok');
    const regions = new Set(all.data.map((c) => c.region));
    expect(regions.size).toBeGreaterThan(1);
    const lax = await globex.clusters.list({ region: 'lax1', limit: 200 });
    expect(lax.regions).toBeUndefined();
    expect(lax.data.length).toBeGreaterThan(0);
    expect(lax.data.every((c) => c.region === 'lax1')).toBe(true);
    expect(lax.data.length).toBe(all.data.filter((c) => c.region === 'lax1').length);
    const one = lax.data[0]!;
    expect((await globex.clusters.get(one.id)).region).toBe('lax1');
    // A client-wide default region, and a per-call override.
    const inAms = client(globalKey('globex'), { region: 'ams1' });
    expect((await inAms.clusters.list()).data.every((c) => c.region === 'ams1')).toBe(true);
    expect((await inAms.clusters.list({ region: 'lax1' })).data.every((c) => c.region === 'lax1')).toBe(true);
    // globex has no default region: a create must name one, and the error says which request it was.
    const err = await globex.clusters.create({ name: uniq('nowhere') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeridianError);
    expect((err as MeridianError).code).toBe('region_required');
    expect((err as MeridianError).requestId).toMatch(REQUEST_ID);
    const placed = await globex.clusters.create({ name: uniq('ams'), region: 'ams1', template: 'k8s-small' });
    expect(placed.cluster.region).toBe('ams1');
  });

  it('a region key at the wrong region’s address: one 421, followed to the named address and remembered', async () => {
    const seen: string[] = [];
    const lax = client(key('globex', 'lax1'), {
      baseUrl: regionUrl('sfo1'),
      fetch: async (req) => {
        const res = await checkedFetch(req);
        seen.push(`${new URL(req.url).host} ${res.status}`);
        return res;
      },
    });
    const first = await lax.clusters.list();
    expect(first.data.every((c) => c.region === 'lax1')).toBe(true);
    expect(lax.baseUrl).toBe(regionUrl('lax1'));
    await lax.clusters.list();
    const p = new URL(globalUrl()).port;
    expect(seen).toEqual([`sfo1.localhost:${p} 421`, `lax1.localhost:${p} 200`, `lax1.localhost:${p} 200`]);
    // Naming another region explicitly is not "the wrong address": the 421 is the answer, not
    // followed (the key's address would answer for lax1, not the ams1 asked for).
    const atGlobal = client(key('globex', 'lax1'), { baseUrl: globalUrl() });
    const err = await atGlobal.clusters.list({ region: 'ams1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeridianError);
    expect([(err as MeridianError).status, (err as MeridianError).code]).toEqual([421, 'wrong_region']);
    expect((err as MeridianError).body?.region).toBe('lax1');
    expect((err as MeridianError).requestId).toMatch(REQUEST_ID);
    expect(atGlobal.baseUrl).toBe(globalUrl());
  });

  it('errors carry status, code and request ID; an unknown cluster is 404 not_found', async () => {
    const err = await client(key('acme', 'sfo1'))
      .clusters.get('cls_00000000000000000000000000')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MeridianError);
    expect([(err as MeridianError).status, (err as MeridianError).code]).toEqual([404, 'not_found']);
    expect((err as MeridianError).requestId).toMatch(REQUEST_ID);
    const bad = await client(key('acme', 'sfo1').slice(0, -4) + 'AAAA')
      .me()
      .catch((e: unknown) => e);
    expect((bad as MeridianError).code).toBe('unauthenticated');
    expect((bad as MeridianError).requestId).toMatch(REQUEST_ID);
  });

  it('paginates with an async iterator: every cluster once, in list order', async () => {
    const globex = client(globalKey('globex'));
    const all = await globex.clusters.list({ region: 'sfo1', limit: 200 });
    const seen: string[] = [];
    for await (const c of globex.clusters.iterate({ region: 'sfo1', limit: 2 })) seen.push(c.id);
    expect(all.data.length).toBeGreaterThan(2);
    expect(seen).toEqual(all.data.map((c) => c.id));
  });
});

describe('read-your-writes', () => {
  it('with the sfo1 replica’s apply delayed 300 ms, the SDK reads each write at once (bookmark carried); another principal reading at once does not', async () => {
    // The stranger is alice's browser session at sfo1: another principal of acme, so it owes no
    // wait for the key's writes (the key's own reads are fresh even without the bookmark, since
    // every gateway knows its last write position: server/db/write-positions.ts).
    process.env.AUTH_SECRET = f().authSecret;
    resetEnvCache();
    const cookie = await memberCookie(f().databaseUrl, 'alice@acme.test', 'acme');
    const strangerStatus = (id: string) => statusAtRegionHost(f().baseUrl, 'sfo1', `/v1/projects/${id}`, { cookie });
    // The stranger's read follows the create's answer by one HTTP round trip plus a session
    // look-up: 300 ms keeps it inside the window on a loaded machine (at 50 ms a slow moment read
    // every row replayed), and under the policy's 1 s lag limit (the replica keeps serving).
    await setApplyDelay('sfo1', '300ms');
    try {
      const acme = client(key('acme', 'sfo1'));
      let strangerMissed = 0;
      let strangerAsked = 0;
      for (let i = 0; i < 20; i++) {
        const p = await acme.projects.create({ name: uniq('ryw') });
        expect(acme.bookmark).toBeTruthy();
        // Until the first stale read: that is the proof the delay was real.
        if (strangerMissed === 0) {
          strangerAsked++;
          if ((await strangerStatus(p.id)) === 404) strangerMissed++;
        }
        const got = await acme.api.GET('/projects/{id}', { params: { path: { id: p.id } } });
        expect(got.response.status, JSON.stringify(Object.fromEntries(got.response.headers))).toBe(200);
      }
      const created = await acme.clusters.create({ name: uniq('ryw'), template: 'k8s-small' });
      const read = await acme.clusters.get(created.cluster.id);
      // Found at once, as created or newer: a worker may already have taken its first step.
      expect(['pending', 'provisioning']).toContain(read.status);
      const listed = await acme.clusters.list({ limit: 200 });
      expect(listed.data.map((c) => c.id)).toContain(created.cluster.id);
      console.log(
        `[faults] sdk read-your-writes: 20/20 read back; another principal reading at once read stale after ${strangerAsked} tries`,
      );
      expect(strangerMissed).toBeGreaterThan(0); // the delay was real: a principal owed no wait reads stale
    } finally {
      await setApplyDelay('sfo1', '0');
    }
  });
});

describe('a primary restart', () => {
  it('a read and a create get 503, are retried after Retry-After (the create with one generated Idempotency-Key), and the create happens once', async () => {
    const retries: RetryInfo[] = [];
    const postKeys: string[] = [];
    const acme = client(key('acme', 'sfo1'), {
      maxRetries: 12,
      onRetry: (r) => retries.push(r),
      fetch: (req) => {
        if (req.method === 'POST') postKeys.push(req.headers.get('idempotency-key') ?? '');
        return checkedFetch(req);
      },
    });
    const replica = f().adminReplicas.sfo1!;
    // The sfo1 replica stops replaying: a read carrying the next write's bookmark needs the primary.
    await query(replica, 'SELECT pg_wal_replay_pause()');
    let restarted = false;
    try {
      const project = await acme.projects.create({ name: uniq('restart') });
      postKeys.length = 0;
      await topo.stopServer('primary', 'immediate');
      const name = uniq('once');
      const read = acme.api.GET('/projects/{id}', { params: { path: { id: project.id } } });
      const create = acme.clusters.create({ name, template: 'k8s-small' });
      // The outage met by both: each was answered 503 and is waiting to retry.
      await eventually(
        async () => retries.some((r) => r.method === 'GET') && retries.some((r) => r.method === 'POST'),
        30_000,
        'a 503 retried for the read and the create',
      );
      await topo.startServer('primary');
      await query(replica, 'SELECT pg_wal_replay_resume()');
      restarted = true;
      const [got, created] = await Promise.all([read, create]);
      expect(got.response.status).toBe(200);
      expect(got.data?.id).toBe(project.id);
      expect(created.cluster.name).toBe(name);

      const readRetries = retries.filter((r) => r.method === 'GET');
      const createRetries = retries.filter((r) => r.method === 'POST');
      console.log(
        `[faults] sdk primary restart: read retried ${readRetries.length}×, create retried ${createRetries.length}× (${[...new Set(retries.map((r) => r.status))].join(', ')})`,
      );
      expect(readRetries.some((r) => r.status === 503)).toBe(true);
      expect(createRetries.some((r) => r.status === 503)).toBe(true);
      expect(readRetries.every((r) => r.status === 503 || r.status === 'network_error')).toBe(true);
      // Every attempt of the create carried the same generated key; exactly one cluster exists.
      expect(postKeys.length).toBe(createRetries.length + 1);
      expect(new Set(postKeys).size).toBe(1);
      expect(postKeys[0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
      const rows = await query(f().adminPrimary, 'SELECT count(*)::int AS n FROM clusters WHERE name = $1', [name]);
      expect(rows[0]!.n).toBe(1);
      // A replay of the same create (same key) answers the first outcome, still one cluster.
      const again = await acme.clusters.create({ name, template: 'k8s-small', idempotencyKey: postKeys[0] });
      expect(again.cluster.id).toBe(created.cluster.id);
      const after = await query(f().adminPrimary, 'SELECT count(*)::int AS n FROM clusters WHERE name = $1', [name]);
      expect(after[0]!.n).toBe(1);
    } finally {
      if (!restarted) {
        await topo.startServer('primary').catch(() => {});
        await query(replica, 'SELECT pg_wal_replay_resume()').catch(() => {});
      }
    }
  });
});

describe('runs', () => {
  it('await run.wait({ onStep }) follows a create to ready, hearing every step', async () => {
    const acme = client(key('acme', 'sfo1'));
    const created = await acme.clusters.create({ name: uniq('wait'), template: 'k8s-small' });
    const heard: string[] = [];
    const run = await created.run.wait({
      onStep: (s: RunStep) => heard.push(`${s.name}:${s.status}`),
      intervalMs: 100,
    });
    expect(run.status).toBe('succeeded');
    for (const step of ['validate', 'allocate_servers', 'bootstrap_control_plane', 'join_workers', 'ready']) {
      expect(heard).toContain(`${step}:succeeded`);
    }
    expect((await acme.clusters.get(created.cluster.id)).status).toBe('ready');
    const kube = await acme.clusters.kubeconfig(created.cluster.id);
    expect(kube.kubeconfig).toContain('apiVersion');
  });
});

describe('a 421 is followed only within the deployment', () => {
  /** A local server recording the Authorization header of every request it gets. */
  async function recorder(answer: (req: http.IncomingMessage) => { status: number; body: unknown }) {
    const seen: { host: string; auth: string | undefined }[] = [];
    const server = http.createServer((req, res) => {
      seen.push({ host: req.headers.host ?? '', auth: req.headers.authorization });
      const a = answer(req);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    return { seen, port, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it('not to another origin, a look-alike host or from https down to http; to a region of its own domain, yes', async () => {
    const landing = await recorder(() => ({ status: 200, body: { kind: 'api_key' } }));
    let pointTo = '';
    const api = await recorder(() => ({
      status: 421,
      body: {
        error: { code: 'wrong_region', message: 'elsewhere', request_id: 'req_x', region: 'lax1', base_url: pointTo },
      },
    }));
    // Every name reaches one of the two local servers: the first, or (any other name) the recorder
    // that must never see the key.
    const route = (req: Request) => {
      const u = new URL(req.url);
      const port = u.hostname === 'sfo1.example.test' || u.hostname === 'localhost' ? api.port : landing.port;
      return defaultFetch(new Request(`http://localhost:${port}${u.pathname}${u.search}`, req));
    };
    const k = key('globex', 'lax1');
    try {
      const cases: [string, string, string][] = [
        // [the client's address, the global address, where the 421 points]
        [`http://localhost:${api.port}`, `http://localhost:${api.port}`, `http://127.0.0.1:${landing.port}`],
        [
          `http://localhost:${api.port}`,
          `http://localhost:${api.port}`,
          `http://lax1.localhost.evil.test:${landing.port}`,
        ],
        ['https://sfo1.example.test', 'https://example.test', 'http://lax1.example.test'],
        ['https://sfo1.example.test', 'https://example.test', 'https://lax1.example.test.evil.test'],
        ['https://sfo1.example.test', 'https://example.test', 'https://evil.test'],
        ['https://sfo1.example.test', 'https://example.test', 'https://user@lax1.example.test'],
      ];
      for (const [baseUrl, globalUrl, target] of cases) {
        pointTo = target;
        const c = new MeridianClient({ apiKey: k, baseUrl, globalUrl, fetch: route, maxRetries: 0 });
        const err = await c.me().catch((e: unknown) => e);
        expect([target, (err as MeridianError).status, (err as MeridianError).code]).toEqual([
          target,
          421,
          'wrong_region',
        ]);
        expect(c.baseUrl).toBe(baseUrl);
      }
      expect(landing.seen).toEqual([]);
      expect(api.seen.every((s) => s.auth === `Bearer ${k}`)).toBe(true);

      // The same client pointed at a region of its own domain follows, with the key (the check
      // above would pass on a client that never follows anything).
      pointTo = 'https://lax1.example.test';
      const c = new MeridianClient({
        apiKey: k,
        baseUrl: 'https://sfo1.example.test',
        globalUrl: 'https://example.test',
        fetch: route,
        maxRetries: 0,
      });
      expect(await c.me()).toMatchObject({ kind: 'api_key' });
      expect(c.baseUrl).toBe('https://lax1.example.test');
      expect(landing.seen).toEqual([{ host: `localhost:${landing.port}`, auth: `Bearer ${k}` }]);
    } finally {
      await Promise.all([api.close(), landing.close()]);
    }
  });
});
