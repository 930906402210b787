// Hand-written SQL of the links to the primary: each gateway's reading (upserted with everyone
// else's read back in the same statement), each region's for the sampler, and cleaning up.
import { command, statement } from '../db/sql';

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const date = (v: unknown) => (v instanceof Date ? v : new Date(v as string));

export interface RegionLinkRow {
  region: string;
  /** The lowest of the region's fresh gateway readings (ms). */
  rtt_ms: number;
  gateways: number;
  measured_at: Date;
}

const regionLinkRow = (r: Record<string, unknown>): RegionLinkRow => ({
  region: r.region as string,
  rtt_ms: Number(r.rtt_ms),
  gateways: Number(r.gateways),
  measured_at: date(r.measured_at),
});

/**
 * This gateway's reading upserted, and every other gateway's fresh one (measured within
 * `freshSeconds`) read back per region, in one statement: one round trip per interval. (The
 * SELECT sees the table as of the statement's start: this gateway's own row is left out.)
 */
export const publishLink = statement<
  RegionLinkRow,
  [region: string, gatewayId: string, rttMs: number, minRttMs: number, probes: number, freshSeconds: number]
>(
  'links.publish',
  `WITH mine AS (
     INSERT INTO primary_links (region, gateway_id, rtt_ms, min_rtt_ms, probes, measured_at)
     VALUES ($1::text, $2::text, $3::float8, $4::float8, $5::int, now())
     ON CONFLICT (region, gateway_id) DO UPDATE
       SET rtt_ms = EXCLUDED.rtt_ms, min_rtt_ms = EXCLUDED.min_rtt_ms, probes = EXCLUDED.probes,
           measured_at = EXCLUDED.measured_at
     RETURNING 1)
   SELECT region, min(rtt_ms) AS rtt_ms, count(*)::int AS gateways, max(measured_at) AS measured_at
     FROM primary_links
    WHERE measured_at > now() - make_interval(secs => $6::float8)
      AND NOT (region = $1::text AND gateway_id = $2::text)
    GROUP BY region`,
  regionLinkRow,
  { timeoutMs: 3_000 },
);

/** Each region's link as the sampler stores it: the lowest fresh gateway reading. */
export const regionLinks = statement<RegionLinkRow, [freshSeconds: number]>(
  'links.by_region',
  `SELECT region, min(rtt_ms) AS rtt_ms, count(*)::int AS gateways, max(measured_at) AS measured_at
     FROM primary_links
    WHERE measured_at > now() - make_interval(secs => $1::float8)
    GROUP BY region`,
  regionLinkRow,
);

/** Rows of gateways not heard from for `seconds` (stopped processes). */
export const deleteStaleLinks = command<[seconds: number]>(
  'links.delete_stale',
  'DELETE FROM primary_links WHERE measured_at < now() - make_interval(secs => $1::float8)',
);

export interface LinkBaselineRow {
  region: string;
  /** A low percentile of the region's raw samples' round trips over the window (ms). */
  baseline_ms: number | null;
  /** Samples with a round trip in the window. */
  samples: number;
}

/** Per region, the `percentile` of the raw samples' round trips in (since, until]. */
export const linkBaselines = statement<LinkBaselineRow, [percentile: number, since: Date, until: Date]>(
  'links.baselines',
  `SELECT region, percentile_cont($1::float8) WITHIN GROUP (ORDER BY primary_rtt_ms) AS baseline_ms,
          count(primary_rtt_ms)::int AS samples
     FROM lag_samples
    WHERE resolution_seconds = 5 AND sampled_at > $2::timestamptz AND sampled_at <= $3::timestamptz
    GROUP BY region`,
  (r) => ({ region: r.region as string, baseline_ms: num(r.baseline_ms), samples: Number(r.samples) }),
);
