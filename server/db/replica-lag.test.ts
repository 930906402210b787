// replicaLag: against the primary while it answers; against the furthest WAL received while it does not.
// replicaServing: what a replica's lag and timeline let it serve.
import { describe, expect, it } from 'vitest';
import { replicaLag, replicaServing, type LagInput } from './replica-lag';

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

describe('replicaServing', () => {
  const level = { lagBytes: 0, lagSeconds: 0 };
  const limits = { maxLagBytes: 16 << 20, maxLagSeconds: 10 };

  it('a replica still on the old timeline after a promotion serves nothing, however level', () => {
    const r = replicaServing({ recovery: true, timeline: 3, primaryTimeline: 4, lag: level, ...limits });
    expect(r).toEqual({ status: 'lagging', oldTimeline: true });
  });

  it('once it follows the new timeline it serves again, judged by its lag', () => {
    expect(replicaServing({ recovery: true, timeline: 4, primaryTimeline: 4, lag: level, ...limits })).toEqual({
      status: 'healthy',
      oldTimeline: false,
    });
    const behind = { lagBytes: (16 << 20) + 1, lagSeconds: 1 };
    expect(replicaServing({ recovery: true, timeline: 4, primaryTimeline: 4, lag: behind, ...limits }).status).toBe(
      'lagging',
    );
    expect(
      replicaServing({
        recovery: true,
        timeline: 4,
        primaryTimeline: 4,
        lag: { lagBytes: 0, lagSeconds: 11 },
        ...limits,
      }).status,
    ).toBe('lagging');
  });

  it('a timeline not known yet (the primary not probed since the promotion) is judged by lag alone', () => {
    expect(replicaServing({ recovery: true, timeline: 3, primaryTimeline: undefined, lag: level, ...limits })).toEqual({
      status: 'healthy',
      oldTimeline: false,
    });
  });

  it('a node out of recovery (promoted) is no lagging replica', () => {
    const behind = { lagBytes: 1 << 30, lagSeconds: 60 };
    expect(replicaServing({ recovery: false, timeline: 4, primaryTimeline: 5, lag: behind, ...limits })).toEqual({
      status: 'healthy',
      oldTimeline: false,
    });
  });
});
