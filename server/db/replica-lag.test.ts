// replicaLag: against the primary while it answers; against the furthest WAL received while it does not.
import { describe, expect, it } from 'vitest';
import { replicaLag, type LagInput } from './replica-lag';

const base: LagInput = {
  replayLsn: 1_000n,
  receiveLsn: 1_000n,
  primaryFlushLsn: 1_000n,
  othersReceived: [],
  replayTimestampLagSeconds: 120, // an idle primary: the last commit long ago
  secondsBehind: () => 3,
};

describe('replicaLag', () => {
  it('counts bytes against the primary flushed position, time by the flush record', () => {
    expect(replicaLag(base)).toEqual({ lagBytes: 0, lagSeconds: 0, reference: 1_000n });
    expect(replicaLag({ ...base, primaryFlushLsn: 1_500n })).toEqual({
      lagBytes: 500,
      lagSeconds: 3,
      reference: 1_500n,
    });
    // No flush record that far back: the last replayed commit's age.
    expect(replicaLag({ ...base, primaryFlushLsn: 1_500n, secondsBehind: () => undefined }).lagSeconds).toBe(120);
  });

  it('with the primary down, a replica that stopped replaying is behind what it received', () => {
    const paused = { ...base, primaryFlushLsn: undefined, receiveLsn: 1_800n };
    expect(replicaLag(paused)).toEqual({ lagBytes: 800, lagSeconds: 3, reference: 1_800n });
  });

  it('with the primary down, behind what another replica received', () => {
    const input = { ...base, primaryFlushLsn: undefined, othersReceived: [900n, undefined, 1_300n] };
    expect(replicaLag(input)).toMatchObject({ lagBytes: 300, reference: 1_300n });
    // Level with the furthest: nothing behind, however old its last commit.
    expect(replicaLag({ ...input, replayLsn: 1_300n })).toEqual({ lagBytes: 0, lagSeconds: 0, reference: 1_300n });
  });

  it('nothing to count against: not behind', () => {
    expect(replicaLag({ ...base, primaryFlushLsn: undefined, receiveLsn: undefined })).toEqual({
      lagBytes: 0,
      lagSeconds: 0,
      reference: undefined,
    });
  });
});
