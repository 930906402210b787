// Each region's round trip to the primary on the real topology: this process's health probes
// measure it (the Prometheus gauge shows it), a publish stores it in primary_links and reads
// every other gateway's back, the region cards show it, the sampler copies it into lag_samples
// and the history charts it. Then link_slow from fed samples: it opens after a minute over 2× the
// baseline (one audit event), keeps the baseline it opened with through an hour of slowness,
// and closes on the first sample back (one more audit event).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primary } from '../../server/db/client';
import { primaryRtt, probeNow } from '../../server/db/health';
import { resetEnvCache } from '../../server/env';
import { rest, sessionCookie, useDemoDatabase } from '../../dev/testing/app';
import { query } from '../../dev/testing/db';
import { reconcileAlerts } from '../../server/replication/alert-reconcile';
import { sampleTick, stopLagSampler } from '../../server/replication/lag-sampler';
import { publishTick, stopPrimaryLinks } from '../../server/replication/primary-link';
import { metrics } from '../../server/telemetry/metrics';

let ops: string;
let urls: { primary: string; replicas: Record<string, string> };

type Card = { code: string; link: { rtt_ms: number | null; gateways: number; measured_at: string | null } };
type Alert = {
  id: string;
  kind: string;
  region: string;
  state: string;
  started_at: string;
  rtt_ms: number | null;
  peak_rtt_ms: number | null;
  baseline_rtt_ms: number | null;
};

const get = async <T>(path: string) => {
  const r = await rest<T>('GET', path, { headers: { cookie: ops } });
  expect(r.status).toBe(200);
  return r.body;
};
const cards = async () => (await get<{ data: Card[] }>('/v1/atlas/regions')).data;

beforeAll(async () => {
  ({ urls } = await useDemoDatabase('atlas_link'));
  const user = await primary().user.findUniqueOrThrow({ where: { email: 'ops@meridian.test' } });
  ops = await sessionCookie(user.id, null);
});

afterAll(async () => {
  await stopPrimaryLinks();
  await stopLagSampler();
  resetEnvCache();
});

describe('the link to the primary, measured, shared and shown', () => {
  it('lands in primary_links and on every region card; the sampler stores it and the history charts it', async () => {
    await probeNow();
    await probeNow();
    const mine = primaryRtt()!;
    expect(mine.probes).toBeGreaterThanOrEqual(2);
    expect(mine.medianMs).toBeGreaterThan(0);
    expect(mine.medianMs).toBeLessThan(250); // loopback: a query, not a connect
    const gauge = await metrics.registry.getSingleMetric('meridian_primary_rtt_seconds')!.get();
    expect(gauge.values).toEqual([
      expect.objectContaining({ labels: { region: 'global' }, value: mine.medianMs / 1000 }),
    ]);

    // This process is the global address's gateway: its link counts for the primary's region.
    await publishTick();
    const rows = await primary().primaryLink.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.region).toBe('sfo1');
    expect(rows[0]!.probes).toBeGreaterThanOrEqual(mine.probes); // (publishing starts the probe loop)
    expect(rows[0]!.rttMs).toBeGreaterThan(0);

    // ams1's gateways, far away: two of them, the region's link is the lower.
    await query(
      urls.primary,
      `INSERT INTO primary_links (region, gateway_id, rtt_ms, min_rtt_ms, probes, measured_at)
       VALUES ('ams1', 'gw-ams1-a', 81.2, 79.5, 15, now()), ('ams1', 'gw-ams1-b', 84, 80, 15, now()),
              ('lax1', 'gw-lax1-gone', 10, 9, 15, now() - interval '1 hour')`,
    );
    await publishTick();
    const byCode = new Map((await cards()).map((c) => [c.code, c.link]));
    expect(byCode.get('ams1')).toMatchObject({ rtt_ms: 81.2, gateways: 2 });
    expect(byCode.get('sfo1')!.rtt_ms).toBeGreaterThan(0);
    expect(byCode.get('sfo1')!.rtt_ms).toBeLessThan(250);
    expect(byCode.get('lax1')).toEqual({ rtt_ms: null, gateways: 0, measured_at: null }); // stale: nobody's link

    // The sampler copies each region's link into its sample; the history shows it.
    expect(await sampleTick()).toBe(true);
    const samples = await primary().lagSample.findMany({ where: { resolutionSeconds: 5 } });
    const rtt = new Map(samples.map((s) => [s.region, s.primaryRttMs]));
    expect(rtt.get('ams1')).toBe(81.2);
    expect(rtt.get('sfo1')).toBeGreaterThan(0);
    expect(rtt.get('lax1')).toBeNull(); // a gap, not a 0
    const history = await get<{ regions: { region: string; points: { primary_rtt_ms: number | null }[] }[] }>(
      '/v1/atlas/lag-history?window=15m&region=ams1',
    );
    expect(history.regions.find((r) => r.region === 'ams1')!.points.some((p) => p.primary_rtt_ms === 81.2)).toBe(true);
  });

  it('link_slow opens after a minute far over the baseline, keeps its baseline, and closes when the link recovers', async () => {
    // A synthetic ams1 timeline a day ahead (clear of the live sampler's rows), 5 s apart.
    const [{ t0 }] = (await query<{ t0: Date }>(
      urls.primary,
      `SELECT date_bin('5 seconds', now() + interval '1 day', TIMESTAMPTZ '2000-01-01') AS t0`,
    )) as [{ t0: Date }];
    let next = 0;
    const feed = async (n: number, ms: number) => {
      await query(
        urls.primary,
        `INSERT INTO lag_samples (sampled_at, region, resolution_seconds, replica_up, primary_rtt_ms)
         SELECT $1::timestamptz + make_interval(secs => 5 * g), 'ams1', 5, true, $3::float8
           FROM generate_series($2::int, $2::int + $4::int - 1) g`,
        [t0, next, ms, n],
      );
      next += n;
      return new Date(t0.getTime() + (next - 1) * 5000);
    };
    const c = new pg.Client({ connectionString: urls.primary });
    await c.connect();
    const events = () =>
      primary().auditEvent.findMany({
        where: { action: { startsWith: 'alert.link_' } },
        orderBy: { createdAt: 'asc' },
      });
    const open = async () =>
      (await get<{ data: Alert[] }>('/v1/atlas/alerts?state=open&region=ams1')).data.filter(
        (a) => a.kind === 'link_slow',
      );
    try {
      // Ten minutes at 80 ms: the baseline. Then 250 ms (over 2 × 80 and 80 + 25).
      expect(await reconcileAlerts(c, await feed(120, 80))).toEqual([]);
      expect(await reconcileAlerts(c, await feed(12, 250))).toEqual([]); // 55 s: not yet
      const [opened] = await reconcileAlerts(c, await feed(1, 250)); // 60 s
      expect(opened).toMatchObject({ kind: 'link_slow', region: 'ams1', change: 'opened' });
      const [alert] = await open();
      expect(alert).toMatchObject({
        id: opened!.id,
        state: 'open',
        rtt_ms: 250,
        peak_rtt_ms: 250,
        baseline_rtt_ms: 80,
      });
      expect(Date.parse(alert!.started_at)).toBe(t0.getTime() + 120 * 5000);
      expect(await events()).toMatchObject([{ action: 'alert.link_slow', targetId: opened!.id, actorId: null }]);

      // An hour of slowness does not become the baseline: still open, worst kept.
      expect(await reconcileAlerts(c, await feed(700, 300))).toEqual([]);
      expect(await reconcileAlerts(c, await feed(1, 260))).toEqual([]);
      expect((await open())[0]).toMatchObject({ id: opened!.id, rtt_ms: 260, peak_rtt_ms: 300, baseline_rtt_ms: 80 });

      // Back under 160 ms: closed, one more audit event, and nothing open.
      const [closed] = await reconcileAlerts(c, await feed(1, 90));
      expect(closed).toMatchObject({ id: opened!.id, kind: 'link_slow', change: 'closed' });
      expect(await open()).toEqual([]);
      const all = await events();
      expect(all.map((e) => e.action)).toEqual(['alert.link_slow', 'alert.link_recovered']);
      expect(all[1]!.metadata).toMatchObject({ rtt_ms: 90, baseline_rtt_ms: 80, peak_rtt_ms: 300 });
    } finally {
      await c.end();
    }
  });
});
