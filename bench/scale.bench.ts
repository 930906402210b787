// Every list and detail of Arc, Atlas, the directory and explain on the demo data and on the demo
// plus the scale set (bench/scale-seed.ts), two stacks in one run, interleaved (issue 28 item 2).
import fs from 'node:fs';
import { encode } from 'next-auth/jwt';
import pg from 'pg';
import { prefixed, snapshotEnv, summarize, type Benchmark, type BenchResult } from './lib';
import { scaleCounts, seedScale, waitForReplay, type ScaleSeed } from './scale-seed';
import { send, startBenchServer, type BenchServer } from './server';

/** Requests per kind and stack (fewer for the slow kinds: explain, 7 days of history). */
const N = Number(process.env.BENCH_SCALE_N ?? 200);
const ROUNDS = 4;
/** How deep a "deep page" is: this many pages of 50 in, by cursor. */
const DEEP_PAGES = Number(process.env.BENCH_SCALE_DEEP_PAGES ?? 50);
/** Only the kinds whose name contains one of these (comma-separated), to re-measure a few. */
const ONLY = (process.env.BENCH_SCALE_ONLY ?? '').split(',').filter(Boolean);
const RATIO_TARGET = 1.5;
const ARC_P95_MS = 50;

type Group = 'arc' | 'atlas' | 'directory' | 'explain';

/** What a request needs from its stack: credentials and the IDs it names. */
interface Ctx {
  srv: BenchServer;
  db: pg.Client;
  /** globex's lax1 key, bob's and the operator's sessions. */
  key: Record<string, string>;
  bob: Record<string, string>;
  ops: Record<string, string>;
  /** The organization with deep pages: bigco at scale, globex on the demo (its same requests). */
  big: { key: Record<string, string>; session: Record<string, string>; id: string; slug: string; project: string };
  ids: Record<string, string | undefined>;
  seed?: ScaleSeed;
}

interface Kind {
  name: string;
  group: Group;
  /** Path (and headers) for this stack; undefined: this stack has nothing to ask for. */
  request(c: Ctx): Promise<Req | undefined> | Req | undefined;
  n?: number;
  /** Refills a rate limit before each request (untimed): explain and the directory allow few a minute. */
  unlimit?: string;
}

interface Req {
  path: string;
  headers: Record<string, string>;
  method?: string;
  body?: string;
  /** Said in the report: e.g. how deep the cursor went. */
  note?: string;
}

const q = (o: Record<string, string | number | undefined>) =>
  Object.entries(o)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

async function getJson(c: Ctx, path: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await send(`${c.srv.baseUrl}${path}`, { headers });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** The cursor `pages` pages of 50 into `path` (or as deep as the list goes), walked untimed. */
async function deepCursor(c: Ctx, path: string, headers: Record<string, string>, pages = DEEP_PAGES) {
  let cursor: string | undefined;
  let depth = 0;
  for (; depth < pages; depth++) {
    const sep = path.includes('?') ? '&' : '?';
    const body = await getJson(c, `${path}${sep}${q({ limit: 50, cursor })}`, headers);
    const next = body.next_cursor as string | null;
    if (!next) break;
    cursor = next;
  }
  return { cursor, depth };
}

function deep(name: string, group: Group, path: string, as: (c: Ctx) => Record<string, string>): Kind {
  return {
    name: `${name}, a deep page (${DEEP_PAGES} pages of 50 in, by cursor)`,
    group,
    async request(c) {
      const { cursor, depth } = await deepCursor(c, path, as(c));
      const sep = path.includes('?') ? '&' : '?';
      return { path: `${path}${sep}${q({ limit: 50, cursor })}`, headers: as(c), note: `${depth} pages in` };
    },
  };
}

const get = (
  name: string,
  group: Group,
  path: (c: Ctx) => string | undefined,
  as: (c: Ctx) => Record<string, string>,
  n?: number,
): Kind => ({
  name,
  group,
  n,
  request: (c) => {
    const p = path(c);
    return p === undefined ? undefined : { path: p, headers: as(c) };
  },
});

const key = (c: Ctx) => c.key;
const bigKey = (c: Ctx) => c.big.key;
const ops = (c: Ctx) => c.ops;
const trpc = (proc: string, input: unknown) =>
  `/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;

/** Every GET (and the directory's look-up) that Arc, Atlas, the directory and explain serve. */
function kinds(): Kind[] {
  const arc: Kind[] = [
    get('Arc GET /v1/compute/clusters, globex lax1 (API key)', 'arc', () => '/v1/compute/clusters?limit=50', key),
    ...['ready', 'failed', 'pending'].map((s) =>
      get(
        `Arc GET /v1/compute/clusters?status=${s}, globex lax1`,
        'arc',
        () => `/v1/compute/clusters?status=${s}`,
        key,
      ),
    ),
    get(
      'Arc GET /v1/compute/clusters?project_id, globex lax1',
      'arc',
      (c) => `/v1/compute/clusters?project_id=${c.ids.globexProject}`,
      key,
    ),
    get(
      'Arc GET /v1/compute/clusters, fan-out over 3 regions (bob session)',
      'arc',
      () => '/v1/compute/clusters?limit=50',
      (c) => c.bob,
    ),
    get(
      'Arc GET /v1/compute/clusters, big org lax1 (demo: globex)',
      'arc',
      () => '/v1/compute/clusters?limit=50',
      bigKey,
    ),
    deep('Arc GET /v1/compute/clusters, big org lax1 (demo: globex)', 'arc', '/v1/compute/clusters', bigKey),
    ...['ready', 'failed', 'pending'].map((s) =>
      get(
        `Arc GET /v1/compute/clusters?status=${s}, big org lax1 (demo: globex)`,
        'arc',
        () => `/v1/compute/clusters?status=${s}`,
        bigKey,
      ),
    ),
    get(
      'Arc GET /v1/compute/clusters?project_id, big org lax1 (demo: globex)',
      'arc',
      (c) => `/v1/compute/clusters?project_id=${c.big.project}`,
      bigKey,
    ),
    deep(
      'Arc GET /v1/compute/clusters?status=ready, big org lax1 (demo: globex)',
      'arc',
      '/v1/compute/clusters?status=ready',
      bigKey,
    ),
    get(
      'Arc GET /v1/compute/clusters, big org fan-out (session; demo: bob)',
      'arc',
      () => '/v1/compute/clusters?limit=50',
      (c) => c.big.session,
    ),
    get('Arc GET /v1/compute/clusters/{id}, globex', 'arc', (c) => `/v1/compute/clusters/${c.ids.globexCluster}`, key),
    get(
      'Arc GET /v1/compute/clusters/{id}, big org (demo: globex)',
      'arc',
      (c) => `/v1/compute/clusters/${c.ids.bigCluster}`,
      bigKey,
    ),
    get('Arc GET /v1/projects, globex', 'arc', () => '/v1/projects', key),
    get('Arc GET /v1/projects, big org (20; demo: globex)', 'arc', () => '/v1/projects', bigKey),
    get('Arc GET /v1/projects/{id}, globex', 'arc', (c) => `/v1/projects/${c.ids.globexProject}`, key),
    get('Arc GET /v1/notifications, globex', 'arc', () => '/v1/notifications', key),
    get('Arc GET /v1/notifications?unread=true, globex', 'arc', () => '/v1/notifications?unread=true', key),
    get('Arc GET /v1/notifications, big org (demo: globex)', 'arc', () => '/v1/notifications', bigKey),
    get(
      'Arc GET /v1/notifications?unread=true, big org (demo: globex)',
      'arc',
      () => '/v1/notifications?unread=true',
      bigKey,
    ),
    deep('Arc GET /v1/notifications, big org (demo: globex)', 'arc', '/v1/notifications', bigKey),
    get('Arc GET /v1/api-keys, globex', 'arc', () => '/v1/api-keys', key),
    get('Arc GET /v1/api-keys, big org (demo: globex)', 'arc', () => '/v1/api-keys', bigKey),
    get('Arc GET /v1/me, globex key', 'arc', () => '/v1/me', key),
    get('Arc GET /v1/organization, globex', 'arc', () => '/v1/organization', key),
    get('Arc GET /v1/organization, big org (demo: globex)', 'arc', () => '/v1/organization', bigKey),
    get('Arc GET /v1/compute/templates (capacity), globex', 'arc', () => '/v1/compute/templates', key),
    get(
      'Arc GET /v1/workflow-runs/{id}, globex',
      'arc',
      (c) => c.ids.globexRun && `/v1/workflow-runs/${c.ids.globexRun}`,
      key,
    ),
    get('Arc GET /v1/routing/resolve, globex key', 'arc', () => '/v1/routing/resolve', key),
    get('Arc GET /v1/ping', 'arc', () => '/v1/ping', key),
  ];
  const atlas: Kind[] = [
    get('Atlas GET /v1/atlas/regions', 'atlas', () => '/v1/atlas/regions', ops),
    get(
      'Atlas GET /v1/atlas/regions/lax1 (capacity, clusters by status)',
      'atlas',
      () => '/v1/atlas/regions/lax1',
      ops,
    ),
    ...(['15m', '1h', '24h', '7d'] as const).map((w) =>
      get(
        `Atlas GET /v1/atlas/lag-history?window=${w}`,
        'atlas',
        () => `/v1/atlas/lag-history?window=${w}`,
        ops,
        w === '7d' || w === '24h' ? 50 : undefined,
      ),
    ),
    get(
      'Atlas GET /v1/atlas/lag-history?window=7d&region=lax1',
      'atlas',
      () => '/v1/atlas/lag-history?window=7d&region=lax1',
      ops,
      50,
    ),
    get('Atlas GET /v1/atlas/alerts (open)', 'atlas', () => '/v1/atlas/alerts', ops),
    get('Atlas GET /v1/atlas/alerts?state=all', 'atlas', () => '/v1/atlas/alerts?state=all', ops),
    get(
      'Atlas GET /v1/atlas/alerts?state=all&region=lax1',
      'atlas',
      () => '/v1/atlas/alerts?state=all&region=lax1',
      ops,
    ),
    deep('Atlas GET /v1/atlas/alerts?state=all', 'atlas', '/v1/atlas/alerts?state=all', ops),
    get('Atlas GET /v1/atlas/audit', 'atlas', () => '/v1/atlas/audit', ops),
    get('Atlas GET /v1/atlas/audit?actor=<email> (bob)', 'atlas', () => '/v1/atlas/audit?actor=bob%40globex.test', ops),
    get(
      'Atlas GET /v1/atlas/audit?actor=<id> (big org admin; demo: bob)',
      'atlas',
      (c) => `/v1/atlas/audit?actor=${c.ids.bigUser}`,
      ops,
    ),
    get('Atlas GET /v1/atlas/audit?action=api_key.*', 'atlas', () => '/v1/atlas/audit?action=api_key.*', ops),
    get(
      'Atlas GET /v1/atlas/audit?action=api_key.create (exact)',
      'atlas',
      () => '/v1/atlas/audit?action=api_key.create',
      ops,
    ),
    get(
      'Atlas GET /v1/atlas/audit?from&to (a day, a week ago)',
      'atlas',
      () => {
        const to = new Date(Date.now() - 7 * 86_400_000);
        return `/v1/atlas/audit?${q({ from: new Date(to.getTime() - 86_400_000).toISOString(), to: to.toISOString() })}`;
      },
      ops,
    ),
    deep('Atlas GET /v1/atlas/audit', 'atlas', '/v1/atlas/audit', ops),
    get('Atlas GET /v1/atlas/infrastructure/servers', 'atlas', () => '/v1/atlas/infrastructure/servers', ops),
    ...(['hostname', 'created_at', 'status', 'region'] as const).flatMap((s) =>
      (['asc', 'desc'] as const).map((o) =>
        get(
          `Atlas GET /v1/atlas/infrastructure/servers?sort=${s}&order=${o}`,
          'atlas',
          () => `/v1/atlas/infrastructure/servers?sort=${s}&order=${o}`,
          ops,
        ),
      ),
    ),
    ...[
      'region=lax1',
      'status=available',
      'status=offline',
      'zone=lax1-a',
      'rack=r07',
      'allocation=allocated',
      'allocation=free',
      'q=s00042',
      'q=srv_A',
      'region=lax1&status=available&sort=created_at&order=desc',
    ].map((f) =>
      get(
        `Atlas GET /v1/atlas/infrastructure/servers?${f}`,
        'atlas',
        () => `/v1/atlas/infrastructure/servers?${f}`,
        ops,
      ),
    ),
    deep('Atlas GET /v1/atlas/infrastructure/servers', 'atlas', '/v1/atlas/infrastructure/servers', ops),
    deep(
      'Atlas GET /v1/atlas/infrastructure/servers?sort=status&order=desc',
      'atlas',
      '/v1/atlas/infrastructure/servers?sort=status&order=desc',
      ops,
    ),
    get('Atlas tRPC atlas.servers.facets', 'atlas', () => trpc('atlas.servers.facets', {}), ops),
    get(
      'Atlas GET /v1/atlas/infrastructure/servers/{id}',
      'atlas',
      (c) => `/v1/atlas/infrastructure/servers/${c.ids.server}`,
      ops,
    ),
    get('Atlas GET /v1/atlas/organizations', 'atlas', () => '/v1/atlas/organizations', ops),
    get('Atlas GET /v1/atlas/organizations?q=glob', 'atlas', () => '/v1/atlas/organizations?q=glob', ops),
    get('Atlas GET /v1/atlas/organizations?region=ams1', 'atlas', () => '/v1/atlas/organizations?region=ams1', ops),
    deep('Atlas GET /v1/atlas/organizations', 'atlas', '/v1/atlas/organizations', ops),
    get(
      'Atlas GET /v1/atlas/organizations/{id}, globex',
      'atlas',
      (c) => `/v1/atlas/organizations/${c.ids.globex}`,
      ops,
    ),
    get(
      'Atlas GET /v1/atlas/organizations/{id}, big org (demo: globex)',
      'atlas',
      (c) => `/v1/atlas/organizations/${c.big.id}`,
      ops,
    ),
    get('Atlas GET /v1/atlas/compute/clusters', 'atlas', () => '/v1/atlas/compute/clusters', ops),
    get('Atlas GET /v1/atlas/compute/clusters?org=globex', 'atlas', () => '/v1/atlas/compute/clusters?org=globex', ops),
    get(
      'Atlas GET /v1/atlas/compute/clusters?org=<big org> (demo: globex)',
      'atlas',
      (c) => `/v1/atlas/compute/clusters?org=${c.big.slug}`,
      ops,
    ),
    ...[
      'region=lax1',
      'status=failed',
      'status=deleted',
      'template=k8s-gpu',
      'q=core',
      'region=ams1&status=ready&template=k8s-small',
    ].map((f) =>
      get(`Atlas GET /v1/atlas/compute/clusters?${f}`, 'atlas', () => `/v1/atlas/compute/clusters?${f}`, ops),
    ),
    get(
      'Atlas GET /v1/atlas/compute/clusters?q=<cluster ID>',
      'atlas',
      (c) => `/v1/atlas/compute/clusters?q=${c.ids.globexCluster}`,
      ops,
    ),
    deep('Atlas GET /v1/atlas/compute/clusters', 'atlas', '/v1/atlas/compute/clusters', ops),
    get('Atlas GET /v1/atlas/directory/workspaces', 'atlas', () => '/v1/atlas/directory/workspaces', ops),
    get(
      'Atlas GET /v1/atlas/directory/workspaces?region=lax1',
      'atlas',
      () => '/v1/atlas/directory/workspaces?region=lax1',
      ops,
    ),
    deep('Atlas GET /v1/atlas/directory/workspaces', 'atlas', '/v1/atlas/directory/workspaces', ops),
    get('Atlas GET /v1/atlas/moves', 'atlas', () => '/v1/atlas/moves', ops),
    get('Atlas GET /v1/atlas/moves?status=completed', 'atlas', () => '/v1/atlas/moves?status=completed', ops),
    get('Atlas GET /v1/atlas/moves?org=globex', 'atlas', () => '/v1/atlas/moves?org=globex', ops),
    get('Atlas GET /v1/atlas/moves/{id}', 'atlas', (c) => c.ids.move && `/v1/atlas/moves/${c.ids.move}`, ops),
    get('Atlas GET /v1/atlas/policies?org=globex', 'atlas', () => '/v1/atlas/policies?org=globex', ops),
    get('Atlas GET /v1/atlas/policies?org=default', 'atlas', () => '/v1/atlas/policies?org=default', ops),
    get('Atlas GET /v1/atlas/policies/gateways', 'atlas', () => '/v1/atlas/policies/gateways', ops),
    get('Atlas GET /v1/atlas/database', 'atlas', () => '/v1/atlas/database', ops),
  ];
  const lookup =
    (slug: (c: Ctx) => string): Kind['request'] =>
    (c) => ({
      path: '/api/v1/directory/resolve',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ slug: slug(c) }),
    });
  const other: Kind[] = [
    {
      name: 'Directory POST /api/v1/directory/resolve, globex (global address)',
      group: 'directory',
      unlimit: 'directory_lookup',
      request: lookup(() => 'globex'),
    },
    {
      name: 'Directory POST /api/v1/directory/resolve, big org (demo: globex)',
      group: 'directory',
      unlimit: 'directory_lookup',
      request: lookup((c) => c.big.slug),
    },
    {
      name: 'Directory POST /api/v1/directory/resolve, an unknown slug',
      group: 'directory',
      unlimit: 'directory_lookup',
      request: lookup(() => 'no-such-workspace'),
    },
    ...(['known', 'missing'] as const).flatMap((which): Kind[] => [
      {
        name: `Explain GET /v1/requests/{id} (Arc, globex key), ${which === 'known' ? 'a stored request' : 'an ID no record has'}`,
        group: 'explain',
        n: 100,
        unlimit: 'explain_principal',
        request: (c) => ({ path: `/v1/requests/${c.ids[which]}`, headers: c.key }),
      },
      {
        name: `Explain GET /v1/atlas/requests/{id} (operator), ${which === 'known' ? 'a stored request' : 'an ID no record has'}`,
        group: 'explain',
        n: 100,
        unlimit: 'explain_principal',
        request: (c) => ({ path: `/v1/atlas/requests/${c.ids[which]}`, headers: c.ops }),
      },
    ]),
  ];
  return [...arc, ...atlas, ...other];
}

/** Routes deliberately left out, and why (printed with the figures). */
const NOT_COVERED = [
  'every mutation (POST/PATCH/DELETE): the issue asks for reads; creates are the arc bench’s',
  'GET /v1/compute/clusters/{id}/kubeconfig: a GET that issues a credential (a write per call)',
  'GET /v1/atlas/infrastructure/servers/{id}/runs/{run_id}: no server has a run in either data set',
  'GET /v1/atlas/regions/{code} for sfo1/ams1: the same query as lax1',
  'tRPC-only reads (compute.clusters.defaults, region.list): served from memory or by the REST ones’ code',
  'Next pages (app/arc, app/atlas): server-rendered through the same procedures',
  '/api/v1/cell and /internal/v1/*: signed cell ↔ directory calls, not user reads',
];

async function session(secret: string, uid: string, org: string | null): Promise<Record<string, string>> {
  const salt = 'authjs.session-token';
  const token = await encode({ token: { uid, org, sub: uid, sv: 0 }, secret, salt });
  return { cookie: `${salt}=${token}` };
}

async function context(srv: BenchServer, seed?: ScaleSeed): Promise<Ctx> {
  const db = new pg.Client({ connectionString: srv.stack.topology!.urls().ownerPrimary });
  await db.connect();
  const one = async (sql: string, params: unknown[] = []) => (await db.query<{ id: string }>(sql, params)).rows[0]?.id;
  const secret = srv.stack.appEnv.AUTH_SECRET!;
  const globex = (await one(`SELECT id FROM organizations WHERE slug = 'globex'`))!;
  const bob = (await one(`SELECT id FROM users WHERE email = 'bob@globex.test'`))!;
  const opsId = (await one(`SELECT id FROM users WHERE email = 'ops@meridian.test'`))!;
  const lax1 = srv.stack.credentials.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
  const key = { Authorization: `Bearer ${lax1}` };
  const bobSession = await session(secret, bob, globex);
  // globex's first cluster and project in lax1, by ID order (the same rows on every run of the demo).
  const globexCluster = await one(
    `SELECT id FROM clusters WHERE org_id = $1 AND region = 'lax1' ORDER BY created_at LIMIT 1`,
    [globex],
  );
  const globexProject = await one(`SELECT project_id AS id FROM clusters WHERE id = $1`, [globexCluster]);
  const ids: Ctx['ids'] = {
    globex,
    globexCluster,
    globexProject,
    globexRun: await one(`SELECT id FROM workflow_runs WHERE cluster_id = $1 LIMIT 1`, [globexCluster]),
    server: await one(`SELECT id FROM servers WHERE region = 'lax1' ORDER BY hostname LIMIT 1`),
    move: await one(`SELECT id FROM workspace_moves ORDER BY created_at DESC LIMIT 1`),
    bigUser: seed?.bigOrg.userId ?? bob,
  };
  const big: Ctx['big'] = seed
    ? {
        key: { Authorization: `Bearer ${seed.bigOrg.keys.lax1}` },
        session: await session(secret, seed.bigOrg.userId, seed.bigOrg.id),
        id: seed.bigOrg.id,
        slug: seed.bigOrg.slug,
        project: seed.bigOrg.projectIds[0]!,
      }
    : { key, session: bobSession, id: globex, slug: 'globex', project: globexProject! };
  ids.bigCluster = seed
    ? await one(
        `SELECT id FROM clusters WHERE org_id = $1 AND region = 'lax1' AND status <> 'deleted' ORDER BY created_at LIMIT 1`,
        [seed.bigOrg.id],
      )
    : globexCluster;
  return { srv, db, key, bob: bobSession, ops: await session(secret, opsId, null), big, ids, seed };
}

/** A request ID the gateway stored a decision record for (the demo's own traffic): explain's "stored request". */
async function ownRequestId(c: Ctx): Promise<string> {
  const res = await new Promise<string>((resolve, reject) => {
    void fetch(`${c.srv.baseUrl}/v1/projects`, { headers: c.key })
      .then(async (r) => {
        await r.arrayBuffer();
        resolve(r.headers.get('X-Request-Id') ?? '');
      })
      .catch(reject);
  });
  await new Promise((r) => setTimeout(r, 1500)); // the decision log flushes every 250 ms
  return res;
}

async function timeOne(c: Ctx, r: Req, unlimit?: string): Promise<{ ms: number; status: number }> {
  if (unlimit) await c.db.query('DELETE FROM rate_limits WHERE key LIKE $1', [`${unlimit}%`]);
  const t = performance.now();
  const res = await send(`${c.srv.baseUrl}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
  return { ms: performance.now() - t, status: res.status };
}

/** Every process's CPU ticks (utime + stime) and parent, from /proc. */
function processTable(): Map<number, { ppid: number; ticks: number }> {
  const out = new Map<number, { ppid: number; ticks: number }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      /* exited */
    }
  }
  return out;
}

/** The stack's PostgreSQL processes: its postmasters (their command names its folder) and their children. */
function postgresPids(srv: BenchServer): number[] {
  const masters = new Set<number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(srv.stack.dataDir)) masters.add(Number(name));
    } catch {
      /* exited */
    }
  }
  const table = processTable();
  return [...table].filter(([pid, p]) => masters.has(pid) || masters.has(p.ppid)).map(([pid]) => pid);
}

/**
 * What each stack costs with no request in flight (its timers: health probes, samplers, sweeps),
 * in shares of a core over `seconds`: the background load every timed request competes with.
 */
async function idleCpu(srv: BenchServer, seconds: number): Promise<{ gateway: number; postgres: number }> {
  const pg = postgresPids(srv);
  const before = processTable();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = processTable();
  const used = (pids: number[]) =>
    pids.reduce((a, pid) => a + ((after.get(pid)?.ticks ?? 0) - (before.get(pid)?.ticks ?? 0)), 0) / 100;
  const share = (pids: number[]) => Math.round((used(pids) / seconds) * 1000) / 1000;
  return { gateway: share([srv.pid]), postgres: share(pg) };
}

interface Measured {
  kind: Kind;
  demo?: number[];
  scale?: number[];
  statuses: Set<number>;
  notes: string[];
}

/** Each kind on both stacks, in ROUNDS alternating rounds, one request at a time. */
async function measure(kind: Kind, demo: Ctx, scale: Ctx): Promise<Measured> {
  const out: Measured = { kind, statuses: new Set(), notes: [] };
  const reqs = { demo: await kind.request(demo), scale: await kind.request(scale) };
  for (const side of ['demo', 'scale'] as const) if (reqs[side]?.note) out.notes.push(`${side}: ${reqs[side].note}`);
  const n = Math.min(kind.n ?? N, N);
  const per = Math.ceil(n / ROUNDS);
  for (const side of ['demo', 'scale'] as const) {
    const r = reqs[side];
    if (!r) continue;
    out[side] = [];
    for (let i = 0; i < 3; i++) await timeOne(side === 'demo' ? demo : scale, r, kind.unlimit); // warm
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 ? (['scale', 'demo'] as const) : (['demo', 'scale'] as const)) {
      const r = reqs[side];
      if (!r) continue;
      for (let i = 0; i < per; i++) {
        const { ms, status } = await timeOne(side === 'demo' ? demo : scale, r, kind.unlimit);
        out.statuses.add(status);
        out[side]!.push(ms);
      }
    }
  }
  return out;
}

function report(m: Measured): BenchResult {
  const d = m.demo && summarize(m.demo, 'ms');
  const s = m.scale && summarize(m.scale, 'ms');
  const ratio = d && s ? Math.round((s.p95_ms! / d.p95_ms!) * 100) / 100 : NaN;
  const okRatio = !(ratio > RATIO_TARGET);
  const okArc = m.kind.group !== 'arc' || (s?.p95_ms ?? 0) < ARC_P95_MS;
  const pass = okRatio && okArc;
  const statuses = [...m.statuses].sort().join(',');
  return {
    name: `${pass ? 'PASS' : 'MISS'} ${m.kind.name}`,
    figures: {
      ...(d ? { demo_p50_ms: d.p50_ms!, demo_p95_ms: d.p95_ms! } : {}),
      ...(s ? { scale_p50_ms: s.p50_ms!, scale_p95_ms: s.p95_ms! } : {}),
      ...(Number.isNaN(ratio) ? {} : { p95_ratio: ratio }),
      n: s?.n ?? d?.n ?? 0,
    },
    note: [
      `HTTP ${statuses}`,
      ...m.notes,
      !okRatio ? `p95 over ${RATIO_TARGET}× the demo's` : '',
      !okArc ? `p95 over ${ARC_P95_MS} ms` : '',
      !d ? 'nothing to ask for on the demo' : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

const bench: Benchmark = {
  name: 'scale',
  async run() {
    const counts = scaleCounts();
    // A cell's heartbeat re-registers every slug by two signed calls each: at 10,000
    // organizations that is 20,000 calls every 2 minutes, load the measurement would carry.
    // Both stacks register once, at start (found by this bench; see docs/performance.md).
    const env = { DIRECTORY_HEARTBEAT_SECONDS: '3600' };
    // BENCH_SCALE_SHARED_BUFFERS (e.g. 1GB): both stacks' PostgreSQL with the buffers a database of
    // the scale set's size would have; by default the test topologies' 64 MB.
    const buffersBefore = process.env.MERIDIAN_PG_SHARED_BUFFERS;
    const sharedBuffers = process.env.BENCH_SCALE_SHARED_BUFFERS ?? '64MB';
    process.env.MERIDIAN_PG_SHARED_BUFFERS = sharedBuffers;
    const restore = snapshotEnv();
    const results: BenchResult[] = [];
    const demoSrv = await startBenchServer(env);
    restore(); // the second stack's own secrets and databases, not the first's
    let scaleSrv: BenchServer | undefined;
    const ctxs: Ctx[] = [];
    try {
      scaleSrv = await startBenchServer(env);
      const t0 = performance.now();
      const urls = scaleSrv.stack.topology!.urls();
      const seed = await seedScale(urls.ownerPrimary, counts, (s) => console.log(`  seed: ${s}`));
      const seedSeconds = Math.round((performance.now() - t0) / 100) / 10;
      const replaySeconds = await waitForReplay(urls.adminPrimary, Object.values(urls.adminReplicas));
      console.log(`  seed: ${seedSeconds} s, then every replica replayed it in ${replaySeconds} s more`);
      results.push({
        name: 'scale set: rows seeded by COPY (beside the demo), and seconds',
        figures: {
          ...seed.rows,
          ...prefixed('s', seed.seconds),
          seed_total_s: seedSeconds,
          replicas_replayed_s: replaySeconds,
        },
        note: `BENCH_SCALE_FACTOR=${process.env.BENCH_SCALE_FACTOR ?? 1}, BENCH_SCALE_DECISIONS=${counts.decisions}, shared_buffers ${sharedBuffers}`,
      });
      await new Promise((r) => setTimeout(r, 3000)); // gateways re-read the routing policies
      const demo = await context(demoSrv);
      const scale = await context(scaleSrv, seed);
      ctxs.push(demo, scale);
      demo.ids.known = await ownRequestId(demo);
      demo.ids.missing = `${demo.ids.known!.slice(0, -12)}000000000000`;
      scale.ids.known = seed.knownRequestId;
      scale.ids.missing = seed.missingRequestId;

      const all: Measured[] = [];
      const IDLE_S = 20;
      const [demoIdle, scaleIdle] = [await idleCpu(demoSrv, IDLE_S), await idleCpu(scaleSrv, IDLE_S)];
      results.push({
        name: `idle CPU of each stack over ${IDLE_S} s before timing (share of one core)`,
        figures: {
          demo_gateway: demoIdle.gateway,
          demo_postgres: demoIdle.postgres,
          scale_gateway: scaleIdle.gateway,
          scale_postgres: scaleIdle.postgres,
        },
        note: 'the gateway process (its in-process workers and timers) and every process of its PostgreSQL clusters',
      });
      console.log(`  idle: ${JSON.stringify(results.at(-1)!.figures)}`);
      const wanted = kinds().filter((k) => ONLY.length === 0 || ONLY.some((o) => k.name.includes(o)));
      for (const kind of wanted) {
        const m = await measure(kind, demo, scale);
        const r = report(m);
        console.log(`  ${r.name}: ${JSON.stringify(r.figures)}${r.note ? ` (${r.note})` : ''}`);
        results.push(r);
        all.push(m);
      }
      const missed = results.filter((r) => r.name.startsWith('MISS'));
      results.push({
        name: 'summary',
        figures: { kinds: all.length, pass: all.length - missed.length, miss: missed.length },
        note: `not covered: ${NOT_COVERED.join('; ')}`,
      });
    } finally {
      for (const c of ctxs) await c.db.end();
      await scaleSrv?.stop();
      await demoSrv.stop();
      restore(); // the next bench starts from this process's own environment
      if (buffersBefore === undefined) delete process.env.MERIDIAN_PG_SHARED_BUFFERS;
      else process.env.MERIDIAN_PG_SHARED_BUFFERS = buffersBefore;
    }
    return results;
  },
};

export default bench;
