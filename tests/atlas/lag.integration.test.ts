// Replication lag end to end on the real topology: lax1's replay paused, WAL written on the
// primary; the lag grows in GET /v1/atlas/regions/lax1 and in the stored samples, agreeing with
// pg_stat_replication read at the same moment; the card turns lagging after the debounce and
// reads move to the primary, and the sampler opens a replica_lagging alert (one audit event, even
// across a sampler restart and a second writer); after resume it recovers and the alert closes
// (one more audit event). Also: one sampler per database (advisory lock), and an unreachable
// replica is a gap (null) in the history, never a zero.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { probeNow } from '../../server/db/health';
import { resetEnvCache } from '../../server/env';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { query, topology } from '../../dev/testing/db';
import type { DemoCredentials } from '../../dev/demo/seed';
import { resetLagDebounce } from '../../server/replication/lag-debounce';
import { compact } from '../../server/replication/lag-retention';
import { SAMPLER_LOCK_KEY, sampleTick, stopLagSampler } from '../../server/replication/lag-sampler';
import { reconcileAlerts } from '../../server/replication/alert-reconcile';

/**
 * Tolerances of the agreement with pg_stat_replication. With replay paused the lag only grows (by
 * whatever WAL the whole cluster writes: this process's decision records, autovacuum, checkpoints'
 * full pages), so the API's figure is bracketed by a read just before its probe and one just after
 * its answer, give or take this much.
 */
const BYTES_TOLERANCE = 16 * 1024;
const SECONDS_TOLERANCE = 3; // two definitions of "seconds behind" (see the assertion)

let ops: string;
let creds: DemoCredentials;
let urls: { primary: string; replicas: Record<string, string> };
const admin = () => topology().adminPrimary;
const adminLax = () => topology().adminReplicas.lax1!;

type Overview = {
  code: string;
  degraded: boolean;
  reasons: string[];
  health: {
    replica_state: string;
    serving_reads: boolean | null;
    lag_bytes: number | null;
    lag_seconds: number | null;
    lagging_since: string | null;
  };
};

type Alert = {
  id: string;
  kind: string;
  region: string;
  state: string;
  started_at: string;
  closed_at: string | null;
  lag_bytes: number | null;
  lag_seconds: number | null;
  peak_lag_bytes: number | null;
};
const alerts = async (state: 'open' | 'all' = 'open') =>
  (await rest<{ data: Alert[] }>('GET', `/v1/atlas/alerts?state=${state}&region=lax1`, { headers: { cookie: ops } }))
    .body.data;
const alertEvents = () =>
  primary().auditEvent.findMany({
    where: { action: { startsWith: 'alert.replica_' }, region: 'lax1' },
    orderBy: { createdAt: 'asc' },
  });

const overview = async (code: string) =>
  (await rest<Overview>('GET', `/v1/atlas/regions/${code}`, { headers: { cookie: ops } })).body;

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let v = await fn();
  while (!ok(v)) {
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
    v = await fn();
  }
  return v;
}

/** WAL on the primary (cluster-wide, so lax1's replica falls behind on every database). */
const writeWal = (kib: number) =>
  query(admin(), `SELECT pg_logical_emit_message(false, 'atlas-test', repeat('x', $1))`, [kib * 1024]);

async function senderRow() {
  const [row] = await query<{ lag_bytes: string; replay_lag: number | null; write_lag: number | null }>(
    admin(),
    `SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint::text AS lag_bytes,
            EXTRACT(EPOCH FROM replay_lag)::float8 AS replay_lag, EXTRACT(EPOCH FROM write_lag)::float8 AS write_lag
       FROM pg_stat_replication WHERE application_name = 'lax1'`,
  );
  return { lagBytes: Number(row!.lag_bytes), replayLag: row!.replay_lag, writeLag: row!.write_lag };
}

beforeAll(async () => {
  process.env.REPLICA_MAX_LAG_BYTES = String(64 * 1024);
  process.env.REPLICA_MAX_LAG_SECONDS = '1';
  process.env.HEALTH_PROBE_INTERVAL_MS = '200';
  process.env.ATLAS_LAG_SAMPLES = '3';
  process.env.ATLAS_SAMPLE_INTERVAL_MS = '1000';
  ({ credentials: creds, urls } = await useDemoDatabase('atlas_lag'));
  resetLagDebounce();
  const user = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  ops = await sessionCookie(user.id, null);
});

afterAll(async () => {
  await query(adminLax(), 'SELECT pg_wal_replay_resume()').catch(() => {});
  await stopLagSampler();
  for (const k of [
    'REPLICA_MAX_LAG_BYTES',
    'REPLICA_MAX_LAG_SECONDS',
    'HEALTH_PROBE_INTERVAL_MS',
    'ATLAS_LAG_SAMPLES',
    'ATLAS_SAMPLE_INTERVAL_MS',
  ])
    delete process.env[k];
  resetEnvCache();
});

describe('replication lag, live and sampled', () => {
  it('samples under an advisory lock that no other session gets meanwhile', async () => {
    expect(await sampleTick()).toBe(true);
    const c = new pg.Client({ connectionString: urls.primary });
    await c.connect();
    try {
      const r = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [SAMPLER_LOCK_KEY]);
      expect(r.rows[0]!.ok).toBe(false);
    } finally {
      await c.end();
    }
    const rows = await primary().lagSample.findMany({ where: { resolutionSeconds: 5 } });
    expect(rows.map((r) => r.region).sort()).toEqual(['ams1', 'lax1', 'sfo1']);
    for (const r of rows) expect(r).toMatchObject({ replicaUp: true, senderState: 'streaming' });
  });

  it('a paused replica: lag grows in the API and the samples, agreeing with pg_stat_replication; reads move to the primary; then it recovers', async () => {
    await overview('lax1'); // starts the health monitor and the debounce
    expect((await overview('lax1')).health.replica_state).toBe('healthy');
    await query(adminLax(), 'SELECT pg_wal_replay_pause()');
    try {
      // Keep writing until the card turns lagging (3 probes over 64 KiB / 1 s), sampling meanwhile.
      const lagging = await until(
        async () => {
          await writeWal(64);
          await sampleTick();
          return overview('lax1');
        },
        (o) => o.health.replica_state === 'lagging',
      );
      expect(lagging.health.serving_reads).toBe(false);
      expect(lagging.health.lagging_since).not.toBeNull();
      expect(lagging.degraded).toBe(true);
      expect(lagging.reasons.join(' ')).toMatch(/Replica lagging since .* reads go to the primary/);

      // Reads at lax1 go to the primary, saying why.
      const key = creds.api_keys.find((k) => k.org === 'globex' && k.region === 'lax1')!.key;
      const projects = await rest('GET', '/v1/projects', {
        host: 'lax1.localhost:3000',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(projects.headers.get('X-Meridian-Served-By')).toBe('primary');
      expect(projects.headers.get('X-Degraded-Reason')).toBe('replica_lagging');

      // Same moment: pg_stat_replication read around a fresh probe and the API's answer.
      await new Promise((r) => setTimeout(r, 1_100)); // the sampler's next interval
      const pgBefore = await senderRow();
      await probeNow();
      const pgNow = await senderRow();
      const api = (await overview('lax1')).health;
      const pgLater = await senderRow();
      console.log(
        `[lag agreement] api ${api.lag_bytes} B / ${api.lag_seconds} s; pg_stat_replication ${pgBefore.lagBytes}..${pgLater.lagBytes} B / replay_lag ${pgNow.replayLag} s`,
      );
      expect(api.lag_bytes).toBeGreaterThan(64 * 1024);
      expect(api.lag_bytes).toBeGreaterThanOrEqual(pgBefore.lagBytes - BYTES_TOLERANCE);
      expect(api.lag_bytes).toBeLessThanOrEqual(pgLater.lagBytes + BYTES_TOLERANCE);
      // Seconds are two definitions (now − the last replayed commit, vs the walsender's replay
      // lag estimate): both must see the replica behind, within SECONDS_TOLERANCE of each other.
      expect(pgNow.replayLag).not.toBeNull();
      expect(api.lag_seconds).toBeGreaterThan(0);
      expect(Math.abs(api.lag_seconds! - pgNow.replayLag!)).toBeLessThanOrEqual(SECONDS_TOLERANCE);

      // The stored sample of the same moment agrees too.
      const pgAtTick = await senderRow();
      expect(await sampleTick()).toBe(true);
      const sample = await primary().lagSample.findFirstOrThrow({
        where: { region: 'lax1', resolutionSeconds: 5 },
        orderBy: { sampledAt: 'desc' },
      });
      const pgLast = await senderRow(); // the newest sample may be a background tick's, after ours
      console.log(
        `[lag agreement] sample ${sample.lagBytes} B (replica) / ${sample.senderLagBytes} B (pg_stat_replication), replay_lag ${sample.replayLagSeconds} s; test reads ${pgAtTick.lagBytes}..${pgLast.lagBytes} B`,
      );
      for (const bytes of [Number(sample.lagBytes), Number(sample.senderLagBytes)]) {
        expect(bytes).toBeGreaterThanOrEqual(pgAtTick.lagBytes - BYTES_TOLERANCE);
        expect(bytes).toBeLessThanOrEqual(pgLast.lagBytes + BYTES_TOLERANCE);
      }
      expect(sample.replayLagSeconds).not.toBeNull();
      expect(sample.writeLagSeconds).not.toBeNull();

      // The history shows it climbing.
      const history = await rest<{ regions: { region: string; points: { lag_bytes: number | null }[] }[] }>(
        'GET',
        '/v1/atlas/lag-history?window=15m&region=lax1',
        { headers: { cookie: ops } },
      );
      expect(history.status).toBe(200);
      const lax = history.body.regions.find((r) => r.region === 'lax1')!;
      expect(Math.max(...lax.points.map((p) => p.lag_bytes ?? 0))).toBeGreaterThan(64 * 1024);

      // The alert: ATLAS_LAG_SAMPLES (3) consecutive samples over the limit open it, once.
      const [opened] = await until(
        async () => {
          await writeWal(16);
          await sampleTick();
          return alerts();
        },
        (a) => a.some((x) => x.kind === 'replica_lagging'),
      );
      expect(opened).toMatchObject({ kind: 'replica_lagging', region: 'lax1', state: 'open', closed_at: null });
      expect(opened!.lag_bytes).toBeGreaterThan(64 * 1024);
      expect(await alertEvents()).toMatchObject([
        { action: 'alert.replica_lagging', targetType: 'alert', targetId: opened!.id, actorId: null },
      ]);
      // A restarted sampler (lock released, state forgotten) and a second writer at the same
      // sample raise nothing again: the open alert is in the database.
      await stopLagSampler();
      await writeWal(16);
      expect(await sampleTick()).toBe(true);
      const c = new pg.Client({ connectionString: urls.primary });
      await c.connect();
      try {
        const [latest] = await query<{ at: Date }>(urls.primary, `SELECT max(sampled_at) AS at FROM lag_samples`);
        expect(await reconcileAlerts(c, latest!.at)).toEqual([]);
      } finally {
        await c.end();
      }
      expect((await alerts()).map((a) => a.id)).toEqual([opened!.id]);
      expect(await alertEvents()).toHaveLength(1);
    } finally {
      await query(adminLax(), 'SELECT pg_wal_replay_resume()');
    }
    const healthy = await until(
      () => overview('lax1'),
      (o) => o.health.replica_state === 'healthy' && o.health.serving_reads === true,
    );
    expect(healthy.health.lagging_since).toBeNull();
    expect(healthy.health.lag_bytes).toBeLessThan(64 * 1024);

    // The first sample within the limits closes the alert, with one more audit event.
    await until(
      async () => {
        await sampleTick();
        return alerts();
      },
      (a) => a.length === 0,
    );
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      await sampleTick(); // later samples change nothing
    }
    const [closed] = await alerts('all');
    expect(closed).toMatchObject({ kind: 'replica_lagging', state: 'closed' });
    expect(closed!.closed_at).not.toBeNull();
    expect(closed!.peak_lag_bytes).toBeGreaterThan(64 * 1024);
    const events = await alertEvents();
    expect(events.map((e) => [e.action, e.targetId])).toEqual([
      ['alert.replica_lagging', closed!.id],
      ['alert.replica_recovered', closed!.id],
    ]);
    console.log(
      `[alert] opened ${events[0]!.createdAt.toISOString()} (run started ${closed!.started_at}), closed ${closed!.closed_at}, peak ${closed!.peak_lag_bytes} B`,
    );
  });

  it('replicas that keep up stay healthy under WAL without commits, however old their last replayed commit', async () => {
    // This is the seconds rule's test: the byte limit goes back to its default (16 MiB), so a probe
    // that happens to land in a burst of WAL (a checkpoint, autovacuum) over this file's 64 KiB
    // does not stand for a replica that fell behind.
    process.env.REPLICA_MAX_LAG_BYTES = String(16 * 1024 * 1024);
    resetEnvCache();
    try {
      await new Promise((r) => setTimeout(r, 1_500)); // the last replayed commit is now over the 1 s limit old
      const seen = new Set<string>();
      const deadline = Date.now() + 3_000;
      while (Date.now() < deadline) {
        await writeWal(8); // non-transactional: written now, flushed by the WAL writer within 200 ms
        await new Promise((r) => setTimeout(r, 100));
        for (const code of ['lax1', 'ams1']) {
          const h = (await overview(code)).health;
          seen.add(`${code} ${h.replica_state} serving=${h.serving_reads}`);
        }
      }
      expect([...seen].sort()).toEqual(['ams1 healthy serving=true', 'lax1 healthy serving=true']);
    } finally {
      process.env.REPLICA_MAX_LAG_BYTES = String(64 * 1024);
      resetEnvCache();
    }
  });

  it('GET /v1/atlas/alerts is in the OpenAPI document and refuses hostile input with a stable code', async () => {
    const { openApiDocument } = await import('../../server/api/openapi');
    const paths = openApiDocument().paths ?? {};
    expect(Object.keys(paths).filter((p) => p.endsWith('/atlas/alerts'))).toHaveLength(1);
    for (const q of ['state=bogus', 'region=../../etc', 'limit=0', 'cursor=not-a-cursor']) {
      const res = await rest<{ error: { code: string } }>('GET', `/v1/atlas/alerts?${q}`, { headers: { cookie: ops } });
      expect([res.status, res.body.error.code], q).toEqual([400, 'invalid_request']);
    }
  });

  it('an unreachable replica is a gap (null) in the samples and the history, not a zero', async () => {
    const saved = process.env.DATABASE_REPLICA_URLS!;
    const unreachable = new URL(urls.replicas.ams1!);
    unreachable.port = '1'; // nothing listens there
    process.env.DATABASE_REPLICA_URLS = saved.replace(urls.replicas.ams1!, unreachable.toString());
    resetEnvCache();
    try {
      // At the start of a fresh 5 s history bin, so this sample is the bin's only one.
      await new Promise((r) => setTimeout(r, 5_000 - (Date.now() % 5_000) + 20));
      expect(await sampleTick()).toBe(true);
    } finally {
      process.env.DATABASE_REPLICA_URLS = saved;
      resetEnvCache();
    }
    const sample = await primary().lagSample.findFirstOrThrow({
      where: { region: 'ams1', resolutionSeconds: 5 },
      orderBy: { sampledAt: 'desc' },
    });
    expect(sample).toMatchObject({ replicaUp: false, lagBytes: null, lagSeconds: null });
    const history = await rest<{ regions: { region: string; points: { t: string; lag_bytes: number | null }[] }[] }>(
      'GET',
      '/v1/atlas/lag-history?window=15m&region=ams1',
      { headers: { cookie: ops } },
    );
    const points = history.body.regions[0]!.points;
    const binStart = new Date(Math.floor(sample.sampledAt.getTime() / 5_000) * 5_000).toISOString();
    const bin = points.find((p) => p.t === binStart);
    expect(bin).toBeDefined();
    expect(bin!.lag_bytes).toBeNull();
    expect(points.some((p) => p.lag_bytes !== null)).toBe(true); // earlier samples were measured
  });

  it('retention: raw samples older than an hour fold into minute rows (max lag, summed counts); minute rows go after 7 days', async () => {
    const now = Date.now();
    const minute = Math.floor((now - 2 * 3600_000) / 60_000) * 60_000; // two hours ago
    const raw = [0, 5, 10].map((s, i) => ({
      sampledAt: new Date(minute + s * 1000),
      region: 'zzz1',
      resolutionSeconds: 5,
      replicaUp: i !== 1,
      lagBytes: i === 1 ? null : BigInt(100 * (i + 1)),
      lagSeconds: i === 1 ? null : i + 0.5,
      reads: 10,
      writes: 2,
    }));
    await primary().lagSample.createMany({
      data: [
        ...raw,
        { sampledAt: new Date(now - 8 * 86400_000), region: 'zzz1', resolutionSeconds: 60, reads: 1 },
        { sampledAt: new Date(now - 10 * 60_000), region: 'zzz1', resolutionSeconds: 5, reads: 1 },
      ],
    });
    const c = new pg.Client({ connectionString: urls.primary });
    await c.connect();
    try {
      await compact(c, now);
    } finally {
      await c.end();
    }
    const rows = await primary().lagSample.findMany({
      where: { region: 'zzz1' },
      orderBy: [{ resolutionSeconds: 'asc' }, { sampledAt: 'asc' }],
    });
    // The minute row stays beside its 5- and 30-minute rollups; the 8-day-old row and its
    // rollups are gone; the recent raw sample is untouched.
    const floor = (s: number) => Math.floor(minute / (s * 1000)) * s * 1000;
    expect(rows.map((r) => [r.resolutionSeconds, r.sampledAt.getTime()])).toEqual([
      [5, now - 10 * 60_000],
      [60, minute],
      [300, floor(300)],
      [1800, floor(1800)],
    ]);
    const folded = { replicaUp: true, lagBytes: 300n, lagSeconds: 2.5, reads: 30, writes: 6 };
    expect(rows[1]).toMatchObject({ ...folded, coveredSeconds: null });
    expect(rows[2]).toMatchObject({ ...folded, coveredSeconds: 60 });
    expect(rows[3]).toMatchObject({ ...folded, coveredSeconds: 60 });

    // The 24 h window reads the rollup (once), not the minute row beside it: marked here so the
    // three readings differ (rollup only 1.5/s, minute row only 0.5/s, both 1/s).
    await primary().lagSample.update({
      where: {
        region_resolutionSeconds_sampledAt: { region: 'zzz1', resolutionSeconds: 300, sampledAt: new Date(floor(300)) },
      },
      data: { reads: 90 },
    });
    const history = await rest<{
      step_seconds: number;
      regions: { region: string; points: { t: string; lag_bytes: number | null; read_rate: number | null }[] }[];
    }>('GET', '/v1/atlas/lag-history?window=24h&region=zzz1', { headers: { cookie: ops } });
    expect(history.body.step_seconds).toBe(300);
    const bin = history.body.regions[0]!.points.find((p) => p.t === new Date(floor(300)).toISOString())!;
    expect(bin).toMatchObject({ lag_bytes: 300, read_rate: 90 / 60 });
  });
});
