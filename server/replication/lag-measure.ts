// One sample of every region: the replica's lag as the primary and the replica itself see it,
// this gateway's traffic for the region over the interval, and the region's round trip to the
// primary as its gateways last published it (docs/atlas.md#lag-history).
import type { BackgroundClient } from '../db/background';
import { recordFlush, secondsBehind } from '../db/flush-history';
import { probePool } from '../db/probe-pools';
import { formatLsn, parseLsn } from '../db/lsn';
import { execute, run, runOne } from '../db/sql';
import { replicaRegions, replicaUrl } from '../db/topology';
import { env } from '../env';
import { loadedRegionRegistry } from '../region/registry';
import { regionTraffic } from '../telemetry/region-traffic';
import { freshSeconds } from './primary-link';
import { regionLinks } from './primary-link.sql';
import {
  insertSamples,
  primaryFlushLsn,
  RAW_RESOLUTION,
  replicaReplayPosition,
  replicationSenders,
  type ReplicaPosition,
} from './lag.sql';

export interface SampleRow {
  sampledAt: Date;
  region: string;
  replicaUp: boolean | null;
  senderState: string | null;
  writeLagSeconds: number | null;
  flushLagSeconds: number | null;
  replayLagSeconds: number | null;
  senderLagBytes: bigint | null;
  replayLsn: string | null;
  replayAt: Date | null;
  lagBytes: bigint | null;
  lagSeconds: number | null;
  reads: number;
  writes: number;
  errors: number;
  readP50Ms: number | null;
  readP95Ms: number | null;
  readP99Ms: number | null;
  writeP50Ms: number | null;
  writeP95Ms: number | null;
  writeP99Ms: number | null;
  /** The region's round trip to the primary (ms, its gateways' lowest fresh reading); null: none. */
  primaryRttMs: number | null;
}

function sampleRegions(): string[] {
  const codes = new Set(replicaRegions());
  for (const r of loadedRegionRegistry()?.all() ?? []) codes.add(r.code);
  return [...codes].sort();
}

async function replicaPosition(url: string): Promise<ReplicaPosition | undefined> {
  try {
    return await runOne(probePool(url), replicaReplayPosition);
  } catch {
    return undefined;
  }
}

/**
 * One sample of every region, measured now. `onHiddenStats`: pg_stat_replication lists senders
 * but shows none of their details (the role lacks pg_read_all_stats).
 */
export async function measure(
  client: BackgroundClient,
  now = Date.now(),
  onHiddenStats: () => void = () => {},
): Promise<SampleRow[]> {
  const interval = env().ATLAS_SAMPLE_INTERVAL_MS;
  const sampledAt = new Date(Math.floor(now / interval) * interval);
  const primaryLsn = parseLsn((await runOne(client, primaryFlushLsn))!)!;
  recordFlush(Date.now(), primaryLsn);
  const senders = await run(client, replicationSenders, formatLsn(primaryLsn));
  const byName = new Map(senders.map((r) => [r.application_name, r]));
  if (senders.length > 0 && senders.every((r) => r.state === null)) onHiddenStats();
  const links = new Map((await run(client, regionLinks, freshSeconds())).map((l) => [l.region, l.rtt_ms]));
  const seconds = interval / 1000;
  return Promise.all(
    sampleRegions().map(async (region): Promise<SampleRow> => {
      const s = byName.get(region);
      const senderLagBytes = s?.sender_lag_bytes ? BigInt(s.sender_lag_bytes) : null;
      // pg_stat_replication clears its lag times shortly after a standby caught up on an idle
      // primary: nothing outstanding is a lag of 0, not unknown.
      const idle = (v: number | null) => (v === null && senderLagBytes === 0n && s?.state === 'streaming' ? 0 : v);
      const url = replicaUrl(region);
      const replica = url ? await replicaPosition(url) : undefined;
      const replayLsn = replica?.replay ? parseLsn(replica.replay) : undefined;
      const behind = replayLsn !== undefined ? primaryLsn - replayLsn : undefined;
      const lagBytes = behind === undefined ? null : behind > 0n ? behind : 0n;
      // Seconds as the health monitor counts them (since the primary flushed past the replica).
      const lagSeconds =
        lagBytes === null
          ? null
          : lagBytes > 0n
            ? (secondsBehind(replayLsn!, now) ?? Math.max(0, replica?.ts_lag ?? 0))
            : 0;
      const reads = regionTraffic(region, 'read', seconds, now);
      const writes = regionTraffic(region, 'write', seconds, now);
      return {
        sampledAt,
        region,
        replicaUp: url ? replica !== undefined : null,
        senderState: s?.state ?? null,
        writeLagSeconds: s ? idle(s.write_lag) : null,
        flushLagSeconds: s ? idle(s.flush_lag) : null,
        replayLagSeconds: s ? idle(s.replay_lag) : null,
        senderLagBytes,
        replayLsn: replica?.replay ?? null,
        replayAt: replica?.replay_at ?? null,
        lagBytes,
        lagSeconds,
        reads: reads.requests,
        writes: writes.requests,
        errors: reads.errors + writes.errors,
        readP50Ms: reads.p50_ms,
        readP95Ms: reads.p95_ms,
        readP99Ms: reads.p99_ms,
        writeP50Ms: writes.p50_ms,
        writeP95Ms: writes.p95_ms,
        writeP99Ms: writes.p99_ms,
        primaryRttMs: links.get(region) ?? null,
      };
    }),
  );
}

/** Stores a tick's samples (one statement; a sample already stored is kept). */
export async function store(client: BackgroundClient, rows: SampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <T>(f: (r: SampleRow) => T) => rows.map(f);
  await execute(
    client,
    insertSamples,
    column((r) => r.sampledAt),
    column((r) => r.region),
    column(() => RAW_RESOLUTION),
    column((r) => r.replicaUp),
    column((r) => r.senderState),
    column((r) => r.writeLagSeconds),
    column((r) => r.flushLagSeconds),
    column((r) => r.replayLagSeconds),
    column((r) => r.senderLagBytes?.toString() ?? null),
    column((r) => r.replayLsn),
    column((r) => r.replayAt),
    column((r) => r.lagBytes?.toString() ?? null),
    column((r) => r.lagSeconds),
    column((r) => r.reads),
    column((r) => r.writes),
    column((r) => r.errors),
    column((r) => r.readP50Ms),
    column((r) => r.readP95Ms),
    column((r) => r.readP99Ms),
    column((r) => r.writeP50Ms),
    column((r) => r.writeP95Ms),
    column((r) => r.writeP99Ms),
    column((r) => r.primaryRttMs),
  );
}
