// Alerts as the banner and alerts page read them, newest first, with a primary this gateway cannot
// reach reported live (docs/atlas.md#alerts).
import { z } from 'zod';
import { read } from '../db/access';
import { decodeTimeCursor, encodeTimeCursor } from '../db/cursor';
import { primaryHealth } from '../db/health';
import { primaryLocation } from '../db/primary-locator';
import { afterFailover } from '../database-cluster/cluster';
import { primaryUrl } from '../db/topology';
import type { DataRequest } from '../db/request-state';
import { env } from '../env';
import { AppError } from '../errors';
import { regionRegistry } from '../region/registry';
import { ERROR_RATE_LIMIT, type AlertKind } from './alert-rules';

const n = z.number().nullable();
const alertView = z.object({
  id: z.string(),
  kind: z.enum(['replica_lagging', 'replica_down', 'error_rate_high', 'link_slow', 'primary_down', 'primary_failover']),
  region: z.string(),
  state: z.enum(['open', 'closed']),
  /** false: reported live from this gateway's health probes, not stored (primary_down). */
  durable: z.boolean(),
  started_at: z.string().nullable(),
  opened_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  last_sample_at: z.string().nullable(),
  lag_seconds: n,
  lag_bytes: n,
  peak_lag_seconds: n,
  peak_lag_bytes: n,
  error_rate: n,
  rtt_ms: n.describe("link_slow: the region's latest round trip to the primary (ms)"),
  peak_rtt_ms: n.describe('link_slow: the worst round trip of the episode (ms)'),
  baseline_rtt_ms: n.describe('link_slow: the baseline it is judged against, frozen when it opened (ms)'),
  failover_under_way: z
    .boolean()
    .optional()
    .describe('primary_down: the primary is an HA pair and none of its hosts takes writes yet (a failover)'),
  new_leader: z
    .string()
    .nullable()
    .optional()
    .describe('primary_failover: the database node promoted, which runs without a synchronous standby yet'),
  timeline: z.number().nullable().optional().describe('primary_failover: its timeline'),
});
type AlertView = z.infer<typeof alertView>;

export const alertListView = z.object({
  data: z.array(alertView),
  next_cursor: z.string().nullable(),
  limits: z.object({
    lag_seconds: z.number(),
    lag_bytes: z.number(),
    samples: z.number(),
    error_rate: z.number(),
    link_rtt_factor: z.number(),
    link_rtt_margin_ms: z.number(),
    link_rtt_seconds: z.number(),
  }),
});

/** Alerts, newest first: open ones (the banner) or every episode; a live primary_down first. */
export async function listAlerts(
  req: DataRequest,
  f: { state: 'open' | 'all'; region?: string; limit: number; cursor?: string },
): Promise<z.infer<typeof alertListView>> {
  const after = f.cursor ? decodeTimeCursor(f.cursor) : undefined;
  if (f.cursor && !after) throw new AppError('invalid_request', 'malformed cursor');
  const rows = await read(req, (db) =>
    db.atlasAlert.findMany({
      where: {
        AND: [
          f.state === 'open' ? { openKey: { not: null } } : {},
          f.region ? { region: f.region } : {},
          after ? { OR: [{ openedAt: { lt: after.at } }, { openedAt: after.at, id: { lt: after.id } }] } : {},
        ],
      },
      orderBy: [{ openedAt: 'desc' }, { id: 'desc' }],
      take: f.limit + 1,
    }),
  );
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  const data: AlertView[] = page.map((a) => ({
    id: a.id,
    kind: a.kind as AlertKind,
    region: a.region,
    state: a.openKey ? 'open' : 'closed',
    durable: true,
    started_at: a.startedAt.toISOString(),
    opened_at: a.openedAt.toISOString(),
    closed_at: a.closedAt?.toISOString() ?? null,
    last_sample_at: a.lastSampleAt.toISOString(),
    lag_seconds: a.lagSeconds,
    lag_bytes: a.lagBytes === null ? null : Number(a.lagBytes),
    peak_lag_seconds: a.peakLagSeconds,
    peak_lag_bytes: a.peakLagBytes === null ? null : Number(a.peakLagBytes),
    error_rate: a.errorRate,
    rtt_ms: a.rttMs,
    peak_rtt_ms: a.peakRttMs,
    baseline_rtt_ms: a.baselineRttMs,
  }));
  if (!f.cursor) data.unshift(...(await liveAlerts(f.region)));
  const e = env();
  return {
    data,
    next_cursor: rows.length > f.limit && last ? encodeTimeCursor({ at: last.openedAt, id: last.id }) : null,
    limits: {
      lag_seconds: e.REPLICA_MAX_LAG_SECONDS,
      lag_bytes: e.REPLICA_MAX_LAG_BYTES,
      samples: e.ATLAS_LAG_SAMPLES,
      error_rate: ERROR_RATE_LIMIT,
      link_rtt_factor: e.ATLAS_LINK_RTT_FACTOR,
      link_rtt_margin_ms: e.ATLAS_LINK_RTT_MARGIN_MS,
      link_rtt_seconds: e.ATLAS_LINK_RTT_SECONDS,
    },
  };
}

/** An alert reported live from this gateway's view: every stored episode's field empty. */
function live(
  fields: Pick<AlertView, 'id' | 'kind' | 'region' | 'started_at' | 'last_sample_at'> & Partial<AlertView>,
): AlertView {
  return {
    state: 'open',
    durable: false,
    opened_at: null,
    closed_at: null,
    lag_seconds: null,
    lag_bytes: null,
    peak_lag_seconds: null,
    peak_lag_bytes: null,
    error_rate: null,
    rtt_ms: null,
    peak_rtt_ms: null,
    baseline_rtt_ms: null,
    ...fields,
  };
}

/**
 * The primary's live alerts, first in the list: `primary_down` while this gateway cannot reach it
 * (a failover under way when it is an HA pair), then `primary_failover` from a promotion until the
 * cluster has a synchronous standby again (server/database-cluster).
 */
async function liveAlerts(region: string | undefined): Promise<AlertView[]> {
  const p = primaryHealth();
  const aftermath = p.up ? await afterFailover() : undefined;
  if ((p.up || p.checkedAt === undefined) && !aftermath) return [];
  const primaryRegion = (await regionRegistry()).all().find((r) => r.isPrimary)?.code ?? 'primary';
  if (region && region !== primaryRegion) return [];
  if (!p.up) {
    return [
      live({
        id: 'live_primary_down',
        kind: 'primary_down',
        region: primaryRegion,
        started_at: null,
        last_sample_at: new Date(p.checkedAt!).toISOString(),
        failover_under_way: !!primaryLocation(primaryUrl()),
      }),
    ];
  }
  const since = aftermath!.since ? Date.parse(aftermath!.since) : Number.NaN;
  return [
    live({
      id: `live_primary_failover_${aftermath!.timeline ?? 0}`,
      kind: 'primary_failover',
      region: primaryRegion,
      started_at: Number.isFinite(since) ? new Date(since).toISOString() : null,
      last_sample_at: new Date().toISOString(),
      new_leader: aftermath!.leader,
      timeline: aftermath!.timeline,
    }),
  ];
}
