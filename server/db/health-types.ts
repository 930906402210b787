// What the health monitor (health.ts) knows of the primary and each region's replica: its shapes.
import type { RttSummary } from './rtt-window';

export type ReplicaStatus = 'healthy' | 'lagging' | 'down' | 'unknown';

export interface ReplicaHealth {
  region: string;
  status: ReplicaStatus;
  replayLsn?: bigint;
  lagBytes?: number;
  lagSeconds?: number;
  checkedAt?: number;
  error?: string;
  /** The WAL it has received (replay may be behind it): lag's floor while the primary is down. */
  receiveLsn?: bigint;
  /** The timeline of the WAL it last received (kept while its WAL receiver is not running). */
  timeline?: number;
}

export interface PrimaryHealth {
  up: boolean;
  lsn?: bigint;
  /** pg_current_wal_flush_lsn(): replicas can only have received WAL up to here, so lag is counted
   * against it (WAL written but not yet flushed, e.g. without a commit, is no replica's lag). */
  flushLsn?: bigint;
  /** The primary's timeline: it grows by one at every promotion (a failover, a switchover). */
  timeline?: number;
  checkedAt?: number;
  error?: string;
  /** Since when (ms) the probes have found it unreachable, while they do. */
  downSince?: number;
  /** The last time it was unreachable, from the first probe that failed to the first that answered. */
  lastOutage?: { from: number; to: number };
}

/** This process's recent round trip to the primary, with when the last probe measured it. */
export interface PrimaryRtt extends RttSummary {
  measuredAt: number;
}

/** Called after every probe of a replica (Atlas debounces lag from it). */
export type ReplicaProbeListener = (health: ReplicaHealth) => void;
