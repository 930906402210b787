// The scale set of `npm run bench scale` (issue 28): generated rows streamed into a stack's primary
// by COPY, beside the demo's, respecting the schema's keys, unique indexes and enums.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { mintApiKey } from '../server/api-keys/format';
import { hashPassword } from '../server/auth/password';
import { newId, randomBase62 } from '../server/ids';
import type { DecisionRecord } from '../server/routing/decision';
import { toBatches } from '../server/routing/decision-batch';
import { POLICY_CHANNEL } from '../server/routing/policy.sql';
import { compact } from '../server/replication/lag-retention';

/** The issue's numbers; BENCH_SCALE_FACTOR scales them all (0.1 for a quick run), BENCH_SCALE_DECISIONS the records alone. */
export function scaleCounts(): ScaleCounts {
  const f = Number(process.env.BENCH_SCALE_FACTOR ?? 1);
  const n = (x: number) => Math.max(1, Math.round(x * f));
  return {
    orgs: n(10_000),
    clusters: n(1_000_000),
    bigOrgClusters: n(100_000),
    servers: n(100_000),
    auditEvents: n(1_000_000),
    bigOrgAudit: n(100_000),
    notifications: n(100_000),
    bigOrgNotifications: n(20_000),
    decisions: Number(process.env.BENCH_SCALE_DECISIONS ?? n(10_000_000)),
    alerts: n(2_000),
    moves: n(1_000),
  };
}

export interface ScaleCounts {
  orgs: number;
  clusters: number;
  bigOrgClusters: number;
  servers: number;
  auditEvents: number;
  bigOrgAudit: number;
  notifications: number;
  bigOrgNotifications: number;
  decisions: number;
  alerts: number;
  moves: number;
}

/** What the measurements need to find again in the scale set. */
export interface ScaleSeed {
  bigOrg: { id: string; slug: string; userId: string; keys: Record<string, string>; projectIds: string[] };
  /** A stored decision record of globex (Arc explain finds it) and one ID no record has. */
  knownRequestId: string;
  missingRequestId: string;
  /** An organization of the scale set with one region (org-scoped Atlas views). */
  smallOrg: { id: string; slug: string };
  rows: Record<string, number>;
  seconds: Record<string, number>;
}

type Cell = string | number | boolean | null | Date | Buffer | string[];

const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
const arrayLiteral = (xs: string[]) => `{${xs.map((x) => `"${x.replace(/(["\\])/g, '\\$1')}"`).join(',')}}`;

function cell(v: Cell): string {
  if (v === null) return '\\N';
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return `\\\\x${v.toString('hex')}`;
  if (Array.isArray(v)) return esc(arrayLiteral(v));
  if (typeof v === 'boolean') return v ? 't' : 'f';
  return esc(String(v));
}

/** Streams `rows` into `table` with one COPY (text format), 2,000 rows a chunk. */
async function copyInto(
  c: pg.Client,
  table: string,
  columns: string[],
  rows: Iterable<Cell[]> | AsyncIterable<Cell[]>,
): Promise<number> {
  let n = 0;
  async function* chunks() {
    let buf: string[] = [];
    for await (const r of rows) {
      buf.push(r.map(cell).join('\t'));
      n++;
      if (buf.length === 2000) {
        yield buf.join('\n') + '\n';
        buf = [];
      }
    }
    if (buf.length) yield buf.join('\n') + '\n';
  }
  const sink = c.query(copyFrom(`COPY ${table} (${columns.map((x) => `"${x}"`).join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(chunks()), sink);
  return n;
}

/** A small deterministic PRNG (the set is the same on every run, IDs aside). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const DAY = 86_400_000;
const TEMPLATES = ['k8s-standard', 'k8s-gpu', 'k8s-small'];
/** Mostly ready, a tenth deleted, a few in every other state (pending/provisioning are promised capacity). */
const CLUSTER_STATUSES: [string, number][] = [
  ['ready', 0.8],
  ['deleted', 0.1],
  ['failed', 0.04],
  ['deleting', 0.03],
  ['provisioning', 0.015],
  ['pending', 0.015],
];
const SERVER_STATUSES: [string, number][] = [
  ['available', 0.5],
  ['allocated', 0.35],
  ['maintenance', 0.08],
  ['offline', 0.05],
  ['provisioning', 0.02],
];
const AUDIT_ACTIONS = ['auth.sign_in', 'auth.sign_out', 'api_key.create', 'api_key.revoke', 'membership.add'];

function weighted(random: () => number, table: [string, number][]): string {
  let x = random();
  for (const [v, w] of table) if ((x -= w) < 0) return v;
  return table[0]![0];
}

const requestId = (region: string, ms: number, random: () => number) =>
  `req_${region}-${ms}-${Math.floor(random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}`;

interface Org {
  id: string;
  slug: string;
  regions: string[];
  home: string;
  userId: string;
  projects: string[];
}

/**
 * Seeds the scale set into the database `ownerUrl` points at (the demo must already be there),
 * one table at a time; `log` gets each step's rows and seconds.
 */
export async function seedScale(ownerUrl: string, counts: ScaleCounts, log: (s: string) => void): Promise<ScaleSeed> {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  const random = rng(28_2026);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const rows: Record<string, number> = {};
  const seconds: Record<string, number> = {};
  const step = async (name: string, work: () => Promise<number>) => {
    const t = performance.now();
    rows[name] = await work();
    seconds[name] = Math.round((performance.now() - t) / 100) / 10;
    log(`${name}: ${rows[name].toLocaleString('en')} rows in ${seconds[name]} s`);
  };
  try {
    const regions = (
      await c.query<{ code: string }>('SELECT code FROM regions ORDER BY is_primary DESC, code')
    ).rows.map((r) => r.code);
    const globex = (await c.query<{ id: string }>(`SELECT id FROM organizations WHERE slug = 'globex'`)).rows[0]!.id;
    const now = Date.now();
    const passwordHash = await hashPassword(randomBase62(32)); // nobody signs in as these users

    // Organizations: the big one first (every region), then one to three regions each.
    const orgs: Org[] = [];
    for (let i = 0; i < counts.orgs; i++) {
      const big = i === 0;
      const k = big ? regions.length : random() < 0.6 ? 1 : random() < 0.6 ? 2 : 3;
      const start = Math.floor(random() * regions.length);
      const own = Array.from({ length: Math.min(k, regions.length) }, (_, j) => regions[(start + j) % regions.length]!);
      const sorted = regions.filter((r) => own.includes(r));
      orgs.push({
        id: newId('org'),
        slug: big ? 'bigco' : `scale-${String(i).padStart(5, '0')}`,
        regions: sorted,
        home: sorted[0]!,
        userId: newId('usr'),
        projects: Array.from({ length: big ? 20 : 3 }, () => newId('prj')),
      });
    }
    const created = (i: number) => new Date(now - 400 * DAY + i * 1000);
    await step('organizations', () =>
      copyInto(
        c,
        'organizations',
        ['id', 'slug', 'name', 'status', 'default_region', 'created_at', 'updated_at'],
        orgs.map((o, i) => [
          o.id,
          o.slug,
          `Scale ${o.slug}`,
          'active',
          o.regions.length > 1 ? null : o.home,
          created(i),
          created(i),
        ]),
      ),
    );
    await step('organization_regions', () =>
      copyInto(
        c,
        'organization_regions',
        ['org_id', 'region'],
        orgs.flatMap((o) => o.regions.map((r) => [o.id, r])),
      ),
    );
    await step('users', () =>
      copyInto(
        c,
        'users',
        ['id', 'email', 'name', 'password_hash', 'updated_at'],
        orgs.map((o) => [o.userId, `admin@${o.slug}.test`, `Admin ${o.slug}`, passwordHash, new Date(now)]),
      ),
    );
    await step('user_settings', () =>
      copyInto(
        c,
        'user_settings',
        ['user_id', 'updated_at'],
        orgs.map((o) => [o.userId, new Date(now)]),
      ),
    );
    await step('memberships', () =>
      copyInto(
        c,
        'memberships',
        ['user_id', 'org_id', 'role'],
        orgs.map((o) => [o.userId, o.id, 'admin']),
      ),
    );
    await step('projects', () =>
      copyInto(
        c,
        'projects',
        ['id', 'org_id', 'name', 'created_at', 'updated_at'],
        orgs.flatMap((o, i) => o.projects.map((p, j) => [p, o.id, `project-${j + 1}`, created(i), created(i)])),
      ),
    );
    // A key per organization in its home region; the big one a key per region and a global one.
    const bigKeys: Record<string, string> = {};
    await step('api_keys', () =>
      copyInto(
        c,
        'api_keys',
        ['id', 'org_id', 'created_by_id', 'name', 'region', 'prefix', 'secret_hash', 'scopes'],
        (function* () {
          for (const [i, o] of orgs.entries()) {
            for (const region of i === 0 ? [...o.regions, null] : [o.home]) {
              const m = mintApiKey(region);
              if (i === 0) bigKeys[region ?? 'global'] = m.key;
              yield [
                newId('key'),
                o.id,
                o.userId,
                `scale ${region ?? 'global'}`,
                region,
                m.prefix,
                m.secretHash,
                ['admin'],
              ];
            }
          }
        })(),
      ),
    );

    // Clusters: the big organization's share, the rest spread evenly; names unique per organization.
    const readyByRegion: Record<string, string[]> = Object.fromEntries(regions.map((r) => [r, []]));
    const perOrg = Math.floor((counts.clusters - counts.bigOrgClusters) / Math.max(1, orgs.length - 1));
    await step('clusters', () =>
      copyInto(
        c,
        'clusters',
        [
          'id',
          'org_id',
          'project_id',
          'region',
          'name',
          'template',
          'node_count',
          'version',
          'status',
          'status_reason',
          'created_at',
          'updated_at',
          'ready_at',
          'deleted_at',
          'allocated_at',
        ],
        (function* () {
          for (const [i, o] of orgs.entries()) {
            const n = i === 0 ? counts.bigOrgClusters : perOrg;
            for (let j = 0; j < n; j++) {
              const id = newId('cls');
              const region = pick(o.regions);
              const status = weighted(random, CLUSTER_STATUSES);
              const at = new Date(now - Math.floor(random() * 365 * DAY));
              const ready = status === 'ready' || status === 'deleting' || status === 'deleted';
              if (status === 'ready' && readyByRegion[region]!.length < 200_000) readyByRegion[region]!.push(id);
              yield [
                id,
                o.id,
                pick(o.projects),
                region,
                `c-${j}`,
                pick(TEMPLATES),
                pick([1, 3, 3, 5, 7]),
                pick(['1.33.2', '1.34.1']),
                status,
                status === 'failed' ? 'allocate_servers: not enough available servers in zone' : null,
                at,
                at,
                ready ? new Date(at.getTime() + 240_000) : null,
                status === 'deleted' ? new Date(at.getTime() + 30 * DAY) : null,
                status === 'ready' || status === 'deleting' ? at : null,
              ];
            }
          }
        })(),
      ),
    );

    // Servers over every region; the allocated ones each hold a node of a ready cluster there.
    const allocated: { server: string; region: string }[] = [];
    await step('servers', () =>
      copyInto(
        c,
        'servers',
        [
          'id',
          'region',
          'hostname',
          'zone',
          'rack',
          'cage',
          'status',
          'model',
          'cpu_cores',
          'memory_gb',
          'storage_gb',
          'gpu_count',
          'metadata',
          'created_at',
          'updated_at',
        ],
        (function* () {
          for (let i = 0; i < counts.servers; i++) {
            const id = newId('srv');
            const region = regions[i % regions.length]!;
            const gpu = i % 7 === 0;
            const status = weighted(random, SERVER_STATUSES);
            if (status === 'allocated') allocated.push({ server: id, region });
            const at = new Date(now - 700 * DAY + i * 60_000);
            yield [
              id,
              region,
              `${region}-s${String(i).padStart(6, '0')}.scale.meridian.internal`,
              `${region}-${'abcd'[i % 4]}`,
              `r${String((i % 40) + 1).padStart(2, '0')}`,
              `c${(i % 4) + 1}`,
              status,
              gpu ? 'MX-G8 (8× H200)' : i % 2 ? 'MX-C2 (2× EPYC 9654)' : 'MX-C1 (1× EPYC 9554)',
              gpu ? 128 : i % 2 ? 192 : 64,
              gpu ? 2048 : i % 2 ? 1536 : 512,
              gpu ? 30720 : 15360,
              gpu ? 8 : 0,
              JSON.stringify({ serial: `SC${i}`, power_kw: gpu ? 10.2 : 1.4 }),
              at,
              at,
            ];
          }
        })(),
      ),
    );
    await step('allocations', () =>
      copyInto(
        c,
        'allocations',
        ['id', 'server_id', 'cluster_id', 'role', 'created_at'],
        allocated.flatMap((a, i) => {
          const ready = readyByRegion[a.region]!;
          return ready.length
            ? [[newId('alloc'), a.server, ready[i % ready.length]!, i % 3 ? 'worker' : 'control_plane', new Date(now)]]
            : [];
        }),
      ),
    );

    // Notifications to each organization's admin (the big one's inbox deep), a third unread.
    const perOrgNotes = Math.floor((counts.notifications - counts.bigOrgNotifications) / Math.max(1, orgs.length - 1));
    await step('notifications', () =>
      copyInto(
        c,
        'notifications',
        ['id', 'org_id', 'user_id', 'kind', 'title', 'body', 'read', 'read_at', 'created_at'],
        (function* () {
          for (const [i, o] of orgs.entries()) {
            const n = i === 0 ? counts.bigOrgNotifications : perOrgNotes;
            for (let j = 0; j < n; j++) {
              const at = new Date(now - Math.floor(random() * 90 * DAY));
              const read = j % 3 !== 0;
              yield [
                newId('ntf'),
                o.id,
                o.userId,
                'cluster.ready',
                `Cluster c-${j} is ready`,
                `c-${j} in ${o.home} finished provisioning.`,
                read,
                read ? at : null,
                at,
              ];
            }
          }
        })(),
      ),
    );

    const perOrgAudit = Math.floor((counts.auditEvents - counts.bigOrgAudit) / Math.max(1, orgs.length - 1));
    await step('audit_events', () =>
      copyInto(
        c,
        'audit_events',
        [
          'id',
          'org_id',
          'actor_id',
          'action',
          'target_type',
          'target_id',
          'region',
          'request_id',
          'metadata',
          'created_at',
        ],
        (function* () {
          for (const [i, o] of orgs.entries()) {
            const n = i === 0 ? counts.bigOrgAudit : perOrgAudit;
            for (let j = 0; j < n; j++) {
              const ms = now - Math.floor(random() * 90 * DAY);
              const action = pick(AUDIT_ACTIONS);
              yield [
                newId('evt'),
                o.id,
                o.userId,
                action,
                action.startsWith('api_key') ? 'api_key' : action.startsWith('auth') ? 'user' : 'membership',
                o.userId,
                o.home,
                requestId(o.home, ms, random),
                '{}',
                new Date(ms),
              ];
            }
          }
        })(),
      ),
    );

    // The directory's entries, as each cell's registration would have written them.
    await step('directory.workspaces', () =>
      copyInto(
        c,
        'directory.workspaces',
        ['slug', 'region', 'status', 'updated_at'],
        orgs.map((o) => [o.slug, o.home, 'active', new Date(now)]),
      ),
    );

    // Each organization's first routing policy version, as ensureOrganizationPolicies publishes it.
    await step('routing_policies', async () => {
      const store = (
        await c.query<{ epoch: number; sequence: string }>('SELECT epoch, sequence FROM routing_policy_store')
      ).rows[0]!;
      const first = BigInt(store.sequence);
      const routes = {
        read: { max_lag_ms: 1000, max_signal_age_ms: 5000 },
        list: { max_lag_ms: 1000, max_signal_age_ms: 5000 },
        write: { max_lag_ms: 0, max_signal_age_ms: 5000, idempotency: 'optional' },
      };
      const n = await copyInto(
        c,
        'routing_policies',
        ['epoch', 'sequence', 'org_id', 'content', 'reason'],
        orgs.map((o, i) => [
          store.epoch,
          String(first + BigInt(i + 1)),
          o.id,
          JSON.stringify({
            primary_region: o.home,
            allowed_regions: o.regions,
            failover_mode: 'fixed',
            standby_region: null,
            read_weights: {},
            routes,
          }),
          'initial version: the organization’s regions, mode fixed',
        ]),
      );
      const last = first + BigInt(orgs.length);
      await c.query('UPDATE routing_policy_store SET sequence = $1 WHERE id = 1', [String(last)]);
      // Every gateway re-reads the store (a takeover's target, '*').
      await c.query('SELECT pg_notify($1, $2)', [POLICY_CHANNEL, `${store.epoch}.${last} *`]);
      return n;
    });

    await step('atlas_alerts', () =>
      copyInto(
        c,
        'atlas_alerts',
        [
          'id',
          'kind',
          'region',
          'started_at',
          'opened_at',
          'closed_at',
          'last_sample_at',
          'lag_seconds',
          'peak_lag_seconds',
        ],
        Array.from({ length: counts.alerts }, () => {
          const at = now - 3600_000 - Math.floor(random() * 7 * DAY);
          return [
            newId('alr'),
            pick(['replica_lagging', 'replica_down', 'error_rate_high', 'link_slow']),
            pick(regions),
            new Date(at - 30_000),
            new Date(at),
            new Date(at + 120_000),
            new Date(at + 120_000),
            2.5,
            9.5,
          ];
        }),
      ),
    );

    await step('workspace_moves', () =>
      copyInto(
        c,
        'workspace_moves',
        ['id', 'org_id', 'from_region', 'to_region', 'status', 'created_at', 'finished_at'],
        Array.from({ length: counts.moves }, (_, i) => {
          const o = orgs[1 + (i % (orgs.length - 1))] ?? orgs[0]!;
          const at = now - Math.floor(random() * 30 * DAY);
          const to = regions.find((r) => r !== o.home) ?? o.home;
          return [
            newId('mov'),
            o.id,
            o.home,
            to,
            i % 10 ? 'completed' : 'cancelled',
            new Date(at),
            new Date(at + 90_000),
          ];
        }),
      ),
    );

    await step('lag_samples', () => seedLagSamples(c, regions, now));

    const decisions = await seedDecisions(c, regions, orgs, globex, counts.decisions, now, random);
    rows.decision_records = counts.decisions;
    rows.request_decision_batches = decisions.batches;
    seconds.request_decision_batches = decisions.seconds;
    log(
      `request_decision_batches: ${decisions.batches.toLocaleString('en')} batches of ${counts.decisions.toLocaleString('en')} records in ${decisions.seconds} s`,
    );

    // VACUUM as well as ANALYZE: a table a live system has held for a while is vacuumed (its
    // visibility map set, so counts are index-only scans), and autovacuum must not start on a
    // million fresh rows while the requests are timed.
    const t = performance.now();
    await c.query('VACUUM (ANALYZE)');
    seconds.vacuum_analyze = Math.round((performance.now() - t) / 100) / 10;
    log(`VACUUM (ANALYZE) in ${seconds.vacuum_analyze} s`);

    const big = orgs[0]!;
    const small = orgs.find((o) => o.regions.length === 1 && o !== big) ?? orgs[1]!;
    return {
      bigOrg: { id: big.id, slug: big.slug, userId: big.userId, keys: bigKeys, projectIds: big.projects },
      knownRequestId: decisions.known,
      missingRequestId: decisions.missing,
      smallOrg: { id: small.id, slug: small.slug },
      rows,
      seconds,
    };
  } finally {
    await c.end();
  }
}

/**
 * 7 days of the sampler's history as retention leaves it: raw 5 s rows for the last hour (before
 * now: the running sampler writes from now on), minute rows before that, then compact() writes the
 * 5- and 30-minute rollups as the sampler's retention would have.
 */
async function seedLagSamples(c: pg.Client, regions: string[], now: number): Promise<number> {
  const cols = [
    'sampled_at',
    'region',
    'resolution_seconds',
    'replica_up',
    'sender_state',
    'write_lag_seconds',
    'flush_lag_seconds',
    'replay_lag_seconds',
    'sender_lag_bytes',
    'replay_lsn',
    'replay_at',
    'lag_bytes',
    'lag_seconds',
    'reads',
    'writes',
    'errors',
    'read_p50_ms',
    'read_p95_ms',
    'read_p99_ms',
    'write_p50_ms',
    'write_p95_ms',
    'write_p99_ms',
    'primary_rtt_ms',
  ];
  const row = (t: number, region: string, res: number): Cell[] => {
    const s = Math.floor(t / 1000);
    return [
      new Date(t),
      region,
      res,
      true,
      'streaming',
      0.001,
      0.002,
      0.003 + (s % 97) / 100,
      (s % 89) * 1024,
      '0/3000000',
      new Date(t),
      (s % 89) * 1024,
      (s % 97) / 100,
      5 * res,
      res,
      0,
      2.1,
      6.3,
      9.9,
      8.2,
      15.1,
      22.4,
      0.4,
    ];
  };
  const lastRaw = Math.floor(now / 5000) * 5000 - 5000;
  const hourAgo = now - 3600_000;
  const n = await copyInto(
    c,
    'lag_samples',
    cols,
    (function* () {
      for (const r of regions) {
        for (
          let t = Math.floor((now - 7 * DAY) / 60_000) * 60_000 + 60_000;
          t < Math.floor(hourAgo / 60_000) * 60_000;
          t += 60_000
        )
          yield row(t, r, 60);
        for (let t = Math.ceil(hourAgo / 5000) * 5000 + 5000; t <= lastRaw; t += 5000) yield row(t, r, 5);
      }
    })(),
  );
  await c.query(`DELETE FROM lag_samples WHERE resolution_seconds IN (300, 1800)`);
  await compact(c, now);
  const all = await c.query<{ n: string }>('SELECT count(*) AS n FROM lag_samples');
  return Math.max(n, Number(all.rows[0]!.n));
}

/** One batch's worth of records: what a gateway flush writes (FLUSH_MS) per request region, at about 115 requests/s. */
const PER_BATCH = 250;

/**
 * `total` decision records over the last 23 hours (retention is 24: none is pruned during the
 * bench), in batches of PER_BATCH per region as toBatches makes them, each hour's partition made
 * by the migration's function first. One record of globex's (Arc explain can find it) is kept.
 */
async function seedDecisions(
  c: pg.Client,
  regions: string[],
  orgs: Org[],
  globex: string,
  total: number,
  now: number,
  random: () => number,
): Promise<{ batches: number; seconds: number; known: string; missing: string }> {
  const t0 = performance.now();
  const span = 23 * 3600_000;
  const from = now - span;
  await c.query('SELECT meridian_decision_partitions($1, $2, $3)', [
    new Date(from).toISOString(),
    new Date(now).toISOString(),
    new Date(0).toISOString(),
  ]);
  const batchCount = Math.ceil(total / PER_BATCH);
  const step = span / batchCount;
  const knownAt = Math.floor(batchCount / 2);
  let known = '';
  const route = ['GET /compute/clusters', 'GET /projects', 'POST /compute/clusters', 'GET /notifications', 'GET /me'];
  const record = (region: string, at: number, org: string, prefix: string): DecisionRecord => ({
    request_id: requestId(region, at, random),
    at,
    door: 'rest',
    method: 'GET',
    route: pick(route),
    gateway_region: region,
    gateway_id: 'a1b2c3d4e5f6',
    identity: { kind: 'api_key', key_prefix: prefix },
    org_id: org,
    route_class: 'list',
    policy: { version: '1.3', scope: 'org' },
    hint_regions: [region],
    cascade: [
      { step: 'subdomain', outcome: 'absent' },
      { step: 'api_key', value: region, outcome: 'matched' },
    ],
    region,
    source: 'api_key',
    candidates: [
      { target: `replica:${region}`, chosen: true, lag_ms: Math.floor(random() * 30), signal_age_ms: 300 },
      { target: 'primary', chosen: false },
    ],
    target: `replica:${region}`,
    reason_code: 'replica_ok',
    served_by: `replica:${region}`,
    degraded: null,
    lag_ms: 12,
    signal_age_ms: 300,
    status: 200,
    error_code: null,
    latency_ms: 1 + random() * 20,
    round_trips: { primary: 0, replicas: { [region]: 1 }, connects: 0 },
    ...(random() < 0.01 ? { trace_id: randomBase62(32) } : {}),
  });
  function pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(random() * xs.length)]!;
  }
  // 20 organizations' traffic per batch (globex among them now and then), as a busy gateway's is.
  const orgPool = [globex, ...orgs.slice(0, 2000).map((o) => o.id)];
  async function* batchRows(): AsyncGenerator<Cell[]> {
    for (let b = 0; b < batchCount; b++) {
      const region = regions[b % regions.length]!;
      const first = Math.floor(from + b * step);
      const n = Math.min(PER_BATCH, total - b * PER_BATCH);
      const tenants = Array.from({ length: 20 }, () => pick(orgPool));
      const records = Array.from({ length: n }, (_, i) =>
        record(region, first + Math.floor((i * step * regions.length) / n / 2), pick(tenants), 'mk_x_AbCdEfGhIjKl'),
      );
      if (b === knownAt) {
        records[0] = { ...records[0]!, org_id: globex };
        known = records[0].request_id;
      }
      for (const batch of await toBatches(records)) {
        yield [
          batch.region,
          new Date(batch.firstAt),
          batch.lastMs,
          batch.records,
          batch.orgIds,
          batch.traceIds,
          batch.payload,
        ];
      }
    }
  }
  const batches = await copyInto(
    c,
    'request_decision_batches',
    ['region', 'first_at', 'last_ms', 'records', 'org_ids', 'trace_ids', 'payload'],
    batchRows(),
  );
  const knownMs = Number(known.split('-')[1]);
  const missing = `req_${known.slice(4).split('-')[0]}-${knownMs + 7}-000000000000`;
  return { batches, seconds: Math.round((performance.now() - t0) / 100) / 10, known, missing };
}

/** Waits until every replica replayed the primary's WAL as of now (the COPYs stream to them). */
export async function waitForReplay(primaryUrl: string, replicaUrls: string[], timeoutMs = 600_000): Promise<number> {
  const t = performance.now();
  const p = new pg.Client({ connectionString: primaryUrl });
  await p.connect();
  const target = (await p.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn;
  await p.end();
  for (const url of replicaUrls) {
    const r = new pg.Client({ connectionString: url });
    await r.connect();
    try {
      for (;;) {
        const behind = await r.query<{ b: string }>(
          'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) AS b',
          [target],
        );
        if (Number(behind.rows[0]!.b) <= 0) break;
        if (performance.now() - t > timeoutMs)
          throw new Error(`a replica did not replay the scale set in ${timeoutMs} ms`);
        await new Promise((res) => setTimeout(res, 250));
      }
    } finally {
      await r.end();
    }
  }
  return Math.round((performance.now() - t) / 100) / 10;
}
