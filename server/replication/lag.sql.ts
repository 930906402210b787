// Hand-written SQL of the lag sampler: the primary's and each replica's positions, storing a
// tick's samples, and retention (raw → minute rows → 5/30-minute rollups, then deletion). Lag,
// latencies and the round trip to the primary keep the worst of what they fold; counts add up.
import { command, statement } from '../db/sql';

/** Seconds per raw sample row (the sampler's interval as stored). */
export const RAW_RESOLUTION = 5;
/** Rollups of the minute rows (5 and 30 minutes), read by the 24 h and 7 d charts. */
export const ROLLUP_RESOLUTIONS = [300, 1800] as const;

/** Flushed, as the health monitor counts it: unflushed WAL has reached no replica yet. */
export const primaryFlushLsn = statement<string, []>(
  'replication.primary_flush_lsn',
  'SELECT pg_current_wal_flush_lsn()::text AS lsn',
  (r) => r.lsn as string,
);

export interface SenderRow {
  application_name: string;
  state: string | null;
  write_lag: number | null;
  flush_lag: number | null;
  replay_lag: number | null;
  replay_lsn: string | null;
  sender_lag_bytes: string | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Each replica's sender as the primary sees it (pg_stat_replication), bytes behind `primaryLsn`. */
export const replicationSenders = statement<SenderRow, [primaryLsn: string]>(
  'replication.senders',
  `SELECT application_name, state,
          EXTRACT(EPOCH FROM write_lag)::float8 AS write_lag,
          EXTRACT(EPOCH FROM flush_lag)::float8 AS flush_lag,
          EXTRACT(EPOCH FROM replay_lag)::float8 AS replay_lag,
          replay_lsn::text AS replay_lsn,
          pg_wal_lsn_diff($1::pg_lsn, replay_lsn)::bigint::text AS sender_lag_bytes
     FROM meridian_replication_status()`,
  (r) => ({
    application_name: r.application_name as string,
    state: (r.state as string | null) ?? null,
    write_lag: num(r.write_lag),
    flush_lag: num(r.flush_lag),
    replay_lag: num(r.replay_lag),
    replay_lsn: (r.replay_lsn as string | null) ?? null,
    sender_lag_bytes: (r.sender_lag_bytes as string | null) ?? null,
  }),
);

export interface ReplicaPosition {
  replay: string | null;
  replay_at: Date | null;
  ts_lag: number | null;
}

/** Run on a replica: its own replay position and time. */
export const replicaReplayPosition = statement<ReplicaPosition, []>(
  'replication.replica_replay_position',
  `SELECT pg_last_wal_replay_lsn()::text AS replay, pg_last_xact_replay_timestamp() AS replay_at,
          EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))::float8 AS ts_lag`,
  (r) => ({
    replay: (r.replay as string | null) ?? null,
    replay_at: r.replay_at == null ? null : r.replay_at instanceof Date ? r.replay_at : new Date(r.replay_at as string),
    ts_lag: num(r.ts_lag),
  }),
);

/** The columns a raw sample stores, in the order `insertSamples` takes them (one array each). */
export const SAMPLE_COLUMNS = [
  ['sampled_at', 'timestamptz'],
  ['region', 'text'],
  ['resolution_seconds', 'int'],
  ['replica_up', 'bool'],
  ['sender_state', 'text'],
  ['write_lag_seconds', 'float8'],
  ['flush_lag_seconds', 'float8'],
  ['replay_lag_seconds', 'float8'],
  ['sender_lag_bytes', 'bigint'],
  ['replay_lsn', 'text'],
  ['replay_at', 'timestamptz'],
  ['lag_bytes', 'bigint'],
  ['lag_seconds', 'float8'],
  ['reads', 'int'],
  ['writes', 'int'],
  ['errors', 'int'],
  ['read_p50_ms', 'float8'],
  ['read_p95_ms', 'float8'],
  ['read_p99_ms', 'float8'],
  ['write_p50_ms', 'float8'],
  ['write_p95_ms', 'float8'],
  ['write_p99_ms', 'float8'],
  ['primary_rtt_ms', 'float8'],
] as const;

/** A tick's samples, one row per region; a sample already stored (same key) is kept. */
export const insertSamples = command<unknown[][]>(
  'replication.insert_samples',
  `INSERT INTO lag_samples (${SAMPLE_COLUMNS.map(([c]) => c).join(', ')})
   SELECT * FROM unnest(${SAMPLE_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})
   ON CONFLICT (region, resolution_seconds, sampled_at) DO NOTHING`,
);

/** Raw samples before the cutoff folded into one row per region and minute. */
export const foldRawIntoMinutes = command<[rawResolution: number, cutoff: Date]>(
  'replication.fold_raw_into_minutes',
  `INSERT INTO lag_samples (sampled_at, region, resolution_seconds, replica_up, sender_state,
          write_lag_seconds, flush_lag_seconds, replay_lag_seconds, sender_lag_bytes, replay_lsn, replay_at,
          lag_bytes, lag_seconds, reads, writes, errors, read_p50_ms, read_p95_ms, read_p99_ms,
          write_p50_ms, write_p95_ms, write_p99_ms, primary_rtt_ms)
   SELECT date_trunc('minute', sampled_at), region, 60, bool_or(replica_up), max(sender_state),
          max(write_lag_seconds), max(flush_lag_seconds), max(replay_lag_seconds), max(sender_lag_bytes),
          max(replay_lsn), max(replay_at), max(lag_bytes), max(lag_seconds),
          sum(reads), sum(writes), sum(errors), max(read_p50_ms), max(read_p95_ms), max(read_p99_ms),
          max(write_p50_ms), max(write_p95_ms), max(write_p99_ms), max(primary_rtt_ms)
     FROM lag_samples
    WHERE resolution_seconds = $1::int AND sampled_at < $2::timestamptz
    GROUP BY 1, 2
   ON CONFLICT (region, resolution_seconds, sampled_at) DO NOTHING`,
);

export const deleteSamplesBefore = command<[resolution: number, cutoff: Date]>(
  'replication.delete_samples_before',
  'DELETE FROM lag_samples WHERE resolution_seconds = $1::int AND sampled_at < $2::timestamptz',
);

/**
 * Minute rows folded into rollups of `size` seconds, for complete buckets only (every minute of a
 * bucket that ends by the cutoff is folded already), from the last bucket rolled on: a bucket is
 * written once.
 */
export const rollUpMinutes = command<[size: number, cutoff: Date]>(
  'replication.roll_up_minutes',
  `WITH done AS (SELECT max(sampled_at) + make_interval(secs => $1::int) AS after
                   FROM lag_samples WHERE resolution_seconds = $1::int)
   INSERT INTO lag_samples (sampled_at, region, resolution_seconds, covered_seconds, replica_up, sender_state,
          write_lag_seconds, flush_lag_seconds, replay_lag_seconds, sender_lag_bytes, replay_lsn, replay_at,
          lag_bytes, lag_seconds, reads, writes, errors, read_p50_ms, read_p95_ms, read_p99_ms,
          write_p50_ms, write_p95_ms, write_p99_ms, primary_rtt_ms)
   SELECT date_bin(make_interval(secs => $1::int), sampled_at, TIMESTAMPTZ '2000-01-01') AS bucket, region, $1::int,
          sum(COALESCE(covered_seconds, resolution_seconds)), bool_or(replica_up), max(sender_state),
          max(write_lag_seconds), max(flush_lag_seconds), max(replay_lag_seconds), max(sender_lag_bytes),
          max(replay_lsn), max(replay_at), max(lag_bytes), max(lag_seconds),
          sum(reads), sum(writes), sum(errors), max(read_p50_ms), max(read_p95_ms), max(read_p99_ms),
          max(write_p50_ms), max(write_p95_ms), max(write_p99_ms), max(primary_rtt_ms)
     FROM lag_samples, done
    WHERE resolution_seconds = 60 AND sampled_at >= COALESCE(done.after, '-infinity')
      AND sampled_at < date_bin(make_interval(secs => $1::int), $2::timestamptz, TIMESTAMPTZ '2000-01-01')
    GROUP BY 1, 2
   ON CONFLICT (region, resolution_seconds, sampled_at) DO NOTHING`,
);

export const deleteResolutionsBefore = command<[resolutions: number[], cutoff: Date]>(
  'replication.delete_resolutions_before',
  'DELETE FROM lag_samples WHERE resolution_seconds = ANY($1::int[]) AND sampled_at < $2::timestamptz',
);
