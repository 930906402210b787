// The SQL of the lag history charts: lag_samples binned per region and step, from the raw and
// minute rows or, for a step that has rollups, the rollups and the finer rows after them.
import { statement, type RawRow } from '../db/sql';

export interface HistoryRow {
  bin: Date;
  region: string;
  replica_up: boolean | null;
  lag_seconds: number | null;
  lag_bytes: number | null;
  write_lag_seconds: number | null;
  flush_lag_seconds: number | null;
  replay_lag_seconds: number | null;
  reads: number | null;
  writes: number | null;
  errors: number | null;
  covered: number;
  read_p95_ms: number | null;
  write_p95_ms: number | null;
  primary_rtt_ms: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const historyRow = (r: RawRow): HistoryRow => ({
  bin: r.bin as Date,
  region: r.region as string,
  replica_up: r.replica_up as boolean | null,
  lag_seconds: num(r.lag_seconds),
  lag_bytes: num(r.lag_bytes),
  write_lag_seconds: num(r.write_lag_seconds),
  flush_lag_seconds: num(r.flush_lag_seconds),
  replay_lag_seconds: num(r.replay_lag_seconds),
  reads: num(r.reads),
  writes: num(r.writes),
  errors: num(r.errors),
  covered: Number(r.covered),
  read_p95_ms: num(r.read_p95_ms),
  write_p95_ms: num(r.write_p95_ms),
  primary_rtt_ms: num(r.primary_rtt_ms),
});

type HistoryParams = [stepSeconds: number, from: Date, to: Date, region: string | null];

const binned = (rows: string) => `
  SELECT date_bin(make_interval(secs => $1::int), sampled_at, TIMESTAMPTZ '2000-01-01') AS bin, region,
         bool_or(replica_up) AS replica_up,
         max(lag_seconds) AS lag_seconds, max(lag_bytes) AS lag_bytes,
         max(write_lag_seconds) AS write_lag_seconds, max(flush_lag_seconds) AS flush_lag_seconds,
         max(replay_lag_seconds) AS replay_lag_seconds,
         sum(reads)::bigint AS reads, sum(writes)::bigint AS writes, sum(errors)::bigint AS errors,
         sum(COALESCE(covered_seconds, resolution_seconds))::int AS covered,
         max(read_p95_ms) AS read_p95_ms, max(write_p95_ms) AS write_p95_ms,
         max(primary_rtt_ms) AS primary_rtt_ms
    FROM lag_samples
   WHERE sampled_at >= $2::timestamptz AND sampled_at < $3::timestamptz
         AND ($4::text IS NULL OR region = $4::text)
         AND ${rows}
   GROUP BY 1, 2`;

/** Binned from the raw (5 s) and minute rows. */
export const historyFromSamples = statement<HistoryRow, HistoryParams>(
  'atlas.history_from_samples',
  binned('resolution_seconds IN (5, 60)'),
  historyRow,
);

// The rollups up to the last one written, and the finer rows after it (a bin is never counted
// twice: the finer rows after the last rollup belong to buckets not rolled yet).
const ROLLED_UNTIL = `COALESCE((SELECT max(sampled_at) + make_interval(secs => $1::int)
                                 FROM lag_samples WHERE resolution_seconds = $1::int), '-infinity')`;

/** Binned from the rollups of resolution `$1` and the finer rows after the last of them. */
export const historyFromRollups = statement<HistoryRow, HistoryParams>(
  'atlas.history_from_rollups',
  binned(`((resolution_seconds = $1::int AND sampled_at < ${ROLLED_UNTIL})
           OR (resolution_seconds IN (5, 60) AND sampled_at >= ${ROLLED_UNTIL}))`),
  historyRow,
);
