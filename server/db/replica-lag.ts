// How far behind a replica is, from one probe: against the primary's flushed position while the
// primary answers; while it does not, against the furthest WAL any replica received from it
// (docs/flows/reads-and-writes.md#replica-health).

export interface LagInput {
  /** pg_last_wal_replay_lsn() of the replica probed. */
  replayLsn: bigint | undefined;
  /** pg_last_wal_receive_lsn() of the replica probed. */
  receiveLsn: bigint | undefined;
  /** The primary's flushed position from its last probe; undefined while the primary is down. */
  primaryFlushLsn: bigint | undefined;
  /** What the other replicas on the same timeline had received at their last probes. */
  othersReceived: readonly (bigint | undefined)[];
  /** now − pg_last_xact_replay_timestamp(), for when the primary probes' record can't say. */
  replayTimestampLagSeconds: number | null;
  /** flush-history.ts' secondsBehind. */
  secondsBehind: (replayLsn: bigint) => number | undefined;
}

export interface Lag {
  lagBytes: number;
  lagSeconds: number;
  /** The position lag was counted against (undefined: nothing to count against). */
  reference?: bigint;
}

/**
 * With the primary down, "0 behind" would let a replica that stopped replaying (paused, stuck on a
 * conflict) serve the newest rows as if it had them: WAL another replica (or itself) received is
 * WAL the primary had flushed, so the furthest received is a floor under the primary's last
 * position, and a replica short of it is that far behind.
 */
export function replicaLag(i: LagInput): Lag {
  let reference = i.primaryFlushLsn;
  if (reference === undefined) {
    for (const lsn of [i.receiveLsn, ...i.othersReceived])
      if (lsn !== undefined && (reference === undefined || lsn > reference)) reference = lsn;
  }
  if (reference === undefined || i.replayLsn === undefined) return { lagBytes: 0, lagSeconds: 0, reference };
  const behind = reference - i.replayLsn;
  if (behind <= 0n) return { lagBytes: 0, lagSeconds: 0, reference };
  const lagSeconds = i.secondsBehind(i.replayLsn) ?? Math.max(0, i.replayTimestampLagSeconds ?? 0);
  return { lagBytes: Number(behind), lagSeconds, reference };
}

export interface ServingInput {
  /** pg_is_in_recovery(): false for a node that is no longer a replica (promoted). */
  recovery: boolean;
  /** The timeline of the WAL the replica receives; the primary's (undefined: not known yet). */
  timeline: number | undefined;
  primaryTimeline: number | undefined;
  lag: Lag;
  maxLagBytes: number;
  maxLagSeconds: number;
}

/**
 * Whether a replica serves reads. After a promotion a replica still on the old timeline may hold
 * WAL the new primary never had (written, never acknowledged), and a bookmark minted on the old
 * timeline compares with its positions as if they were the new one's: it serves no read until it
 * follows the new timeline, however little it lags. On the new timeline, positions past the
 * switch point are the new primary's, so a bookmark from before the switch (never past it: the
 * synchronous standby had every acknowledged commit) is judged by the replay position as ever.
 */
export function replicaServing(i: ServingInput): { status: 'healthy' | 'lagging'; oldTimeline: boolean } {
  const oldTimeline =
    i.recovery && i.timeline !== undefined && i.primaryTimeline !== undefined && i.timeline < i.primaryTimeline;
  const lagging = i.recovery && (oldTimeline || i.lag.lagBytes > i.maxLagBytes || i.lag.lagSeconds > i.maxLagSeconds);
  return { status: lagging ? 'lagging' : 'healthy', oldTimeline };
}
