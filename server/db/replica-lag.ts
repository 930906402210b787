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
